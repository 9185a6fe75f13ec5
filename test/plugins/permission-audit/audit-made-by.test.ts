/**
 * A plugin's own call made through the kernel its services resolve from the container (how
 * custom commands and skills run their `!` lines) is judged and recorded as that plugin's: the
 * checkPermission tap and the audit's decision record name it (madeBy / made_by), and so does the
 * executed record, never "a service from the container".
 */
import { readFileSync } from 'node:fs';
import { ContainerModule } from 'inversify';
import { auditFile, createPermissionAuditPlugin } from '../../../plugins/permission-audit/index.js';
import { definePlugin, type KernelApi } from '../../../types/plugin.js';
import type { PermissionRequest } from '../../../types/permissions.js';
import { TOKENS } from '../../../types/tokens.js';
import { say } from '../../support/memory-provider.js';
import { bootRules, tempDirs, writeSettings, type Dirs } from '../permission-rules/helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const RUNNER = Symbol('shell-line-runner');

/** Runs a `!` line the way custom commands do: through the Kernel its service resolved from the container. */
const lineRunner = definePlugin({
  name: 'line-runner',
  bindings: new ContainerModule(({ bind }) => {
    bind(RUNNER)
      .toDynamicValue((context) => {
        const kernel = context.get<KernelApi>(TOKENS.Kernel);
        return { run: (command: string) => kernel.callTool!({ toolName: 'bash', input: { command }, callId: 'line-1', session: kernel.session, mode: 'default' }) };
      })
      .inSingletonScope();
  }),
});

describe('a plugin service acts as its plugin', () => {
  it('its call reaches checkPermission and both audit records with the plugin name', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test)'] });
    const seen: (string | undefined)[] = [];
    const policy = definePlugin({
      name: 'org-policy',
      apply(kernel) {
        kernel.hooks.checkPermission.tapPromise({ name: 'org-policy', stage: 50 }, async (request: PermissionRequest) => {
          seen.push(request.madeBy);
          return undefined;
        });
      },
    });
    const { kernel } = await bootRules(dirs, { steps: [say('done')], plugins: [createPermissionAuditPlugin(), policy, lineRunner] });
    const runner = kernel.container.get<{ run(command: string): Promise<{ allowed: boolean }> }>(RUNNER);
    expect(await runner.run('npm test')).toMatchObject({ allowed: true });
    await kernel.shutdown();
    expect(seen).toEqual(['line-runner']);
    const lines = readFileSync(auditFile(dirs.root), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    const mine = lines.filter((l) => l.tool_call_id === 'line-1');
    expect(mine.map((l) => [l.type, l.made_by])).toEqual([
      ['decision', 'line-runner'],
      ['executed', 'line-runner'],
    ]);
  });
});
