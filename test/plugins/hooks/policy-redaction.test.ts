/**
 * The user's PostToolUse hooks and an organisation's required DLP plugin: the hooks run after the
 * policies, so a hook (a command, an http endpoint, an agent hook's sub-agent and its provider) is
 * sent only what the policy let out, and what a hook adds to the output passes the policy too.
 */
import { afterEach, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { ResolvedConfig } from '../../../types/config.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const SECRET = 'AKIAABCDEFGHIJKLMNOP';
const readSecret: Tool = { name: 'read_file', description: 'reads', inputSchema: { type: 'object' }, readOnly: true, execute: async () => ({ content: `aws_access_key_id = ${SECRET}` }) };
const DLP = "export default { name: 'acme-dlp', apply(k) { k.hooks.postToolUse.tapPromise('acme-dlp', async (r) => ({ ...r, content: r.content.replace(/AKIA[0-9A-Z]{16}/g, '[REDACTED]') })); } };";
const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

test("a PostToolUse hook is sent the output as the required DLP left it, and the text it adds is scrubbed too", async () => {
  const sink = path.join(temp('mewcode-hook-sink-'), 'payload.json');
  // The user's ordinary hook: it keeps the payload it got and adds the key back as context.
  const { root, home } = settingsSetup({
    PostToolUse: [{ matcher: 'Read', hooks: [{ type: 'command', command: `cat > '${sink}'; printf '{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"checked ${SECRET}"}}'` }] }],
  });
  writeFileSync(path.join(root, 'dlp.mjs'), DLP);
  const { kernel, model } = await bootKernel([useTools([call('read_file', { file_path: 'secrets.txt' })]), say('done')], [toolsPlugin([readSecret]), createHooksPlugin({ env: { PATH: process.env.PATH } })], {
    ...(await trustedProject(root, home)),
    config: configWith({ plugins: [{ use: './dlp.mjs', required: true }] }),
  });
  const events = await runPrompt(kernel, 'read it', 'bypassPermissions');
  await kernel.shutdown();
  const payload = readFileSync(sink, 'utf8');
  expect(payload).toContain('aws_access_key_id = [REDACTED]');
  expect(payload).not.toContain(SECRET);
  const end = events.find((e) => e.type === 'tool_end') as { result: { content: string } };
  expect(end.result.content).toContain('checked [REDACTED]');
  expect(JSON.stringify(model.requests)).not.toContain(SECRET);
});
