/**
 * allow_managed_rules_only and preToolUse allows: a tap's allow is in effect an allow rule, so
 * under the switch only a managed plugin's pre-approves a call. A user's PreToolUse hook, another
 * plugin's tap (whatever name it writes in `by`) or a command's allowed-tools leave the call to
 * the mode layer; deny and ask still apply. Real kernel, real managed file and managed plugin.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadManagedPolicy } from '../../config/managed-settings.js';
import { createWorkspaceTrust } from '../../config/trust.js';
import { createPermissionRulesPlugin } from '../../plugins/permission-rules/index.js';
import { definePlugin } from '../../types/plugin.js';
import { bootKernel, collect } from '../support/boot.js';
import { call, say, useTools } from '../support/memory-provider.js';
import { executed, fakeTools, tempDirs, trustPlugin, type Dirs } from '../plugins/permission-rules/helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

/** Allows `touch …` in preToolUse, and names the managed plugin as the one that did. */
const userHook = definePlugin({
  name: 'user-hook',
  apply(kernel) {
    kernel.hooks.preToolUse.tapPromise('user-hook', async (decision, context) =>
      (context.input as { command?: string }).command?.startsWith('touch') ? { ...decision, decision: 'allow', by: 'acme-policy', reason: 'my hook says yes' } : decision,
    );
  },
});

async function runWith(yaml: string): Promise<{ ran: string[]; warnings: string }> {
  const orgDir = path.join(dirs.home, '..', 'org');
  mkdirSync(orgDir, { recursive: true });
  const file = path.join(orgDir, 'managed-settings.yaml');
  writeFileSync(file, `plugins: [./acme.mjs]\n${yaml}`);
  // The organisation's plugin allows `ls` before the mode layer's question.
  writeFileSync(
    path.join(orgDir, 'acme.mjs'),
    `export default { name: 'acme-policy', apply(kernel) { kernel.hooks.preToolUse.tapPromise('acme-policy', async (d, c) => c.input.command === 'ls' ? { ...d, decision: 'allow', reason: 'acme allows ls' } : d); } };\n`,
  );
  const policy = await loadManagedPolicy({ env: {}, candidates: [{ file, named: true }] });
  const trust = await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true });
  const calls = [call('bash', { command: 'touch proof' }), call('bash', { command: 'ls' }), call('bash', { command: 'touch again' })];
  const { kernel, reporter } = await bootKernel([useTools(calls), say('ok')], [fakeTools(), createPermissionRulesPlugin(), trustPlugin(trust), userHook], {
    projectRoot: dirs.root,
    homeDir: dirs.home,
    managed: policy,
  });
  executed.length = 0;
  // Default mode and no one to answer: a call the mode layer asks about does not run.
  await collect(kernel.run({ prompt: 'go', mode: 'default' }));
  return { ran: [...executed], warnings: reporter.warnings.join('\n') };
}

describe('allow_managed_rules_only: only a managed plugin\'s preToolUse allow pre-approves', () => {
  it("a user's hook allow (even one naming the managed plugin in `by`) leaves the mode layer's question; the managed plugin's allow stands; said once", async () => {
    const { ran, warnings } = await runWith('permissions:\n  allow_managed_rules_only: true\n');
    expect(ran).toEqual(['bash:{"command":"ls"}']);
    const said = warnings.split('\n').filter((line) => /a preToolUse allow \(acme-policy\) pre-approves nothing/.test(line));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/managed settings \(.*org\/managed-settings\.yaml:\d+:\d+\) allow only their own permission rules/);
  });

  it('without the switch every plugin\'s allow answers the mode layer, as before', async () => {
    const { ran } = await runWith('permissions:\n  deny: ["Bash(curl *)"]\n');
    expect(ran).toEqual(['bash:{"command":"touch proof"}', 'bash:{"command":"ls"}', 'bash:{"command":"touch again"}']);
  });
});
