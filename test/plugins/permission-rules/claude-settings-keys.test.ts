/**
 * Claude Code's settings values the permission rules take as it does: `defaultMode: "dontAsk"`
 * (the default mode with every question answered no, as `--permission-mode dontAsk`) and
 * `disableBypassPermissionsMode: "disable"` in the user's or the project's own file (it only takes
 * a mode away: bypassPermissions then runs as default).
 */
import permissionMode from '../../../plugins/permission-mode/index.js';
import { TOKENS } from '../../../types/tokens.js';
import type { ApprovalRequest } from '../../../types/permissions.js';
import { bootRules, tempDirs, writeSettings, type Dirs } from './helpers.js';
import { rawHooks } from './raw-hooks.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const question = (kernel: Awaited<ReturnType<typeof bootRules>>['kernel']): ApprovalRequest => ({
  toolName: 'bash',
  tool: kernel.tools.get('bash'),
  input: { command: 'make deploy' },
  category: 'exec',
  target: { kind: 'none' },
  mode: 'default',
  sessionId: kernel.session.sessionId,
  projectRoot: kernel.session.projectRoot,
  verdict: { decision: 'ask', layer: 'permission-mode', reason: 'exec tools ask for approval in default mode' },
  toolCallId: 'c1',
  pluginsMayAllow: true,
  allowRuleLifts: true,
} as ApprovalRequest);

test('defaultMode: dontAsk in a settings file is the default mode, and every question is answered no', async () => {
  for (const spelling of ['defaultMode', 'default_mode']) {
    writeSettings(dirs, 'user', `permissions:\n  ${spelling}: dontAsk\n`);
    const { kernel, reporter } = await bootRules(dirs, { plugins: [permissionMode] });
    try {
      expect(reporter.warnings.join('\n')).not.toContain('default');
      const settings = kernel.container.get(TOKENS.PermissionSettings);
      expect(settings.defaultMode()).toBe('default');
      expect(settings.defaultDontAsk?.()).toBe(true);
      const answer = await rawHooks(kernel).requestApproval.promise(question(kernel));
      expect(answer).toMatchObject({ choice: 'deny', answeredBy: 'permission-mode', reason: expect.stringContaining('defaultMode: dontAsk in your settings refuses whatever would ask') });
    } finally {
      await kernel.shutdown();
    }
  }
  // Without it nothing answers in the UI's place.
  writeSettings(dirs, 'user', 'permissions:\n  defaultMode: default\n');
  const { kernel } = await bootRules(dirs, { plugins: [permissionMode] });
  try {
    expect(await rawHooks(kernel).requestApproval.promise(question(kernel))).toBeUndefined();
  } finally {
    await kernel.shutdown();
  }
});

test("disableBypassPermissionsMode: disable in the user's or the project's file runs bypassPermissions as default, naming the file", async () => {
  for (const layer of ['user', 'project'] as const) {
    for (const value of ['disable', 'true']) {
      const other = tempDirs();
      try {
        const file = writeSettings(other, layer, `permissions:\n  disableBypassPermissionsMode: ${value}\n`);
        const { kernel, reporter } = await bootRules(other, { trust: false });
        try {
          expect(kernel.permittedMode('bypassPermissions')).toBe('default');
          expect(kernel.permittedMode('acceptEdits')).toBe('acceptEdits');
          expect(reporter.warnings.join('\n')).toContain(`bypassPermissions mode is disabled by settings (${file}:2:`);
          expect(reporter.warnings.join('\n')).not.toContain('unknown key');
        } finally {
          await kernel.shutdown();
        }
      } finally {
        other.cleanup();
      }
    }
  }
  writeSettings(dirs, 'user', 'permissions:\n  disableBypassPermissionsMode: false\n');
  const { kernel } = await bootRules(dirs);
  try {
    expect(kernel.permittedMode('bypassPermissions')).toBe('bypassPermissions');
  } finally {
    await kernel.shutdown();
  }
});
