/** Integration with the headless UI: the deny names the rule that would allow the call; default_mode. */
import type { Kernel } from '../../../kernel/kernel.js';
import type { ToolMessage } from '../../../types/messages.js';
import type { UserInterface } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import { definePlugin } from '../../../types/plugin.js';
import uiHeadless from '../../../plugins/ui-headless/index.js';
import { startingMode } from '../../../plugins/ui-headless/headless-ui.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { bootRules, cliOptions, fakeTools, tempDirs, writeSettings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

function activate(kernel: Kernel): void {
  // The container hands out a sealed view of the UI (kernel/service-seals.ts): found by its name.
  const ui = kernel.container.getAll<UserInterface>(TOKENS.UserInterface).find((u) => u.name === 'headless');
  kernel.activateUi(ui!); // approvals now go to the headless output, which answers them with a deny
}

function toolResults(kernel: Kernel): string[] {
  return kernel.conversation.messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results.map((r) => r.content));
}

describe('headless approval answer', () => {
  it('names the exact rule, the flag and the mode that would allow the call', async () => {
    const { kernel } = await bootRules(dirs, {
      plugins: [uiHeadless],
      steps: [useTools([call('bash', { command: 'npm test' }), call('write_file', { file_path: 'src/a.ts' })]), say('ok')],
    });
    activate(kernel);
    await runPrompt(kernel, 'go', 'default');
    const [bashResult, writeResult] = toolResults(kernel);
    expect(bashResult).toBe(
      'User denied: bash needs approval, which headless mode cannot ask for (exec tools ask for approval in default mode (--permission-mode bypassPermissions allows them)). ' +
        'Allow it with --allowedTools "Bash(npm test)" or add "Bash(npm test)" to permissions.allow in ~/.mewcode/settings.yaml, or re-run with --permission-mode bypassPermissions.',
    );
    expect(writeResult).toContain('Allow it with --allowedTools "Write(./src/a.ts)" or add "Write(./src/a.ts)" to permissions.allow in ~/.mewcode/settings.yaml, or re-run with --permission-mode acceptEdits.');
  });

  it('quotes a command for the shell and uses the exact form when it has glob characters', async () => {
    const { kernel } = await bootRules(dirs, { plugins: [uiHeadless], steps: [useTools([call('bash', { command: 'rm -rf "build/*"' })]), say('ok')] });
    activate(kernel);
    await runPrompt(kernel, 'go', 'default');
    expect(toolResults(kernel)[0]).toContain(`Allow it with --allowedTools 'Bash(=rm -rf "build/*")' or add "Bash(=rm -rf \\"build/*\\")" to permissions.allow`);
  });

  it('an ask rule: no mode, allow rule or --allowedTools would help (an ask beats every allow), so none is suggested', async () => {
    writeSettings(dirs, 'project', { ask: ['Bash(git push *)'] });
    const { kernel } = await bootRules(dirs, { plugins: [uiHeadless], steps: [useTools([call('bash', { command: 'git push origin' })]), say('ok')] });
    activate(kernel);
    await runPrompt(kernel, 'go', 'bypassPermissions');
    const result = toolResults(kernel)[0]!;
    expect(result).toContain('ask project rule');
    expect(result).not.toContain('--allowedTools "');
    expect(result).toMatch(/An ask in the settings holds whatever allow rules or --allowedTools say: run interactively to answer, or change the settings that ask\.$/);
  });

  it("a policy plugin's ask: no --allowedTools or allow rule lifts it, so none is suggested; the plugin is named", async () => {
    const policy = definePlugin({
      name: 'team-policy',
      apply: (kernel) =>
        void kernel.hooks.checkPermission.tapPromise({ name: 'team-policy', stage: 250 }, async (request) =>
          request.target?.kind === 'command' && request.target.command.includes('deploy') ? { decision: 'ask', layer: 'team-policy:deploys', reason: 'deploys need a human' } : undefined,
        ),
    });
    const { kernel } = await bootRules(dirs, { plugins: [uiHeadless, policy], steps: [useTools([call('bash', { command: 'echo deploy' })]), say('ok')] });
    activate(kernel);
    await runPrompt(kernel, 'go', 'default');
    const result = toolResults(kernel)[0]!;
    expect(result).not.toContain('--allowedTools "');
    expect(result).toMatch(/The plugin team-policy asks, and no --allowedTools, allow rule or permission mode lifts a plugin's ask: run interactively to answer, or ask whoever maintains team-policy \(the policy's owner\)\.$/);
  });

  it('without the rules plugin the answer is as before', async () => {
    const { kernel } = await bootKernel([useTools([call('bash', { command: 'npm test' })]), say('ok')], [fakeTools(), uiHeadless], { projectRoot: dirs.root, homeDir: dirs.home });
    activate(kernel);
    await runPrompt(kernel, 'go', 'default');
    expect(toolResults(kernel)[0]).toMatch(/Re-run with a --permission-mode that allows it, or add an allow rule to the settings\.$/);
  });
});

describe('starting mode', () => {
  it('--permission-mode when given, else the settings default_mode, else the default', async () => {
    writeSettings(dirs, 'local', 'permissions:\n  default_mode: acceptEdits\n');
    const { kernel } = await bootRules(dirs, { plugins: [uiHeadless] });
    expect(startingMode(kernel, cliOptions({ permissionMode: 'default', permissionModeGiven: false }))).toBe('acceptEdits');
    expect(startingMode(kernel, cliOptions({ permissionMode: 'plan', permissionModeGiven: true }))).toBe('plan');
    expect(startingMode(kernel, cliOptions({ permissionMode: 'default', permissionModeGiven: true }))).toBe('default');
    expect(startingMode(kernel, cliOptions({ permissionMode: 'default' }))).toBe('default'); // unknown → as given

    const bare = await bootKernel([], [uiHeadless], { projectRoot: dirs.root, homeDir: dirs.home });
    expect(startingMode(bare.kernel, cliOptions({ permissionMode: 'default', permissionModeGiven: false }))).toBe('default');
    const other = tempDirs();
    try {
      const noDefault = await bootRules(other);
      expect(startingMode(noDefault.kernel, cliOptions({ permissionMode: 'default', permissionModeGiven: false }))).toBe('default');
    } finally {
      other.cleanup();
    }
  });
});
