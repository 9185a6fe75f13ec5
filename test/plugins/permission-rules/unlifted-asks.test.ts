/**
 * One reading of "can an allow rule lift this question?" (ApprovalRequest.allowRuleLifts, set by
 * the kernel from the chain) for every place that suggests or saves a rule: a required policy
 * plugin's ask, whatever its stage, is not lifted by --allowedTools, so dontAsk and headless -p
 * suggest none, the editor's and the terminal's dialogs offer only allow once / reject, and an
 * approver's "always" is taken as once (no useless rule saved). An ask after the rules that is no
 * required plugin's is lifted, and the rule suggested for it works.
 */
import { existsSync } from 'node:fs';
import type { Kernel } from '../../../kernel/kernel.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import uiHeadless from '../../../plugins/ui-headless/index.js';
import { permissionOptions } from '../../../plugins/ui-acp/permission-options.js';
import { approvalChoices } from '../../../plugins/ui-tui/app/dialogs.js';
import type { ToolMessage } from '../../../types/messages.js';
import { PermissionStage, type ApprovalRequest } from '../../../types/permissions.js';
import { definePlugin, type UserInterface } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import { approvalsFile } from '../../../plugins/permission-rules/settings-files.js';
import { APPROVALS, type Approvals } from '../../../plugins/permission-rules/index.js';
import { runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { bootRules, executed, tempDirs, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
  executed.length = 0;
});
afterEach(() => dirs.cleanup());

/** A policy asking about every `deploy` command, after the rules (where an allow rule would end the chain first, were it not required). */
function policy(required: boolean) {
  return definePlugin({
    name: 'team-policy',
    ...(required ? { required: true } : {}),
    apply: (kernel) =>
      void kernel.hooks.checkPermission.tapPromise({ name: 'team-policy', stage: PermissionStage.Rules + 50 }, async (request) =>
        request.target?.kind === 'command' && request.target.command.includes('deploy') ? { decision: 'ask', layer: 'team-policy', reason: 'deploys need a human' } : undefined,
      ),
  });
}

function toolResults(kernel: Kernel): string[] {
  return kernel.conversation.messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results.map((r) => r.content));
}

const deploy = () => [useTools([call('bash', { command: 'echo deploy' })]), say('ok')];

test("dontAsk: a required policy's ask suggests no --allowedTools (it would not help: given, the question still comes)", async () => {
  const { kernel } = await bootRules(dirs, { plugins: [permissionMode, policy(true)], cli: { dontAsk: true, allowedTools: ['Bash(echo deploy)'] }, steps: deploy() });
  await runPrompt(kernel, 'go', 'default');
  const result = toolResults(kernel)[0]!;
  expect(result).toContain('--permission-mode dontAsk refuses whatever would ask');
  expect(result).not.toMatch(/Allow it with --allowedTools/);
  expect(result).toContain('The plugin team-policy asks, and no --allowedTools, allow rule or permission mode lifts');
  expect(executed).toHaveLength(0);
});

test('dontAsk: an ask after the rules that is no required plugin\'s gets the rule suggested, and that rule lets the call run', async () => {
  const first = await bootRules(dirs, { plugins: [permissionMode, policy(false)], cli: { dontAsk: true }, steps: deploy() });
  await runPrompt(first.kernel, 'go', 'default');
  expect(toolResults(first.kernel)[0]).toContain("Allow it with --allowedTools 'Bash(echo deploy)'");
  const suggested = /--allowedTools '?(Bash\([^)]*\))'?/.exec(toolResults(first.kernel)[0]!)![1]!;
  await first.kernel.shutdown();
  const second = await bootRules(dirs, { plugins: [permissionMode, policy(false)], cli: { dontAsk: true, allowedTools: [suggested] }, steps: deploy() });
  await runPrompt(second.kernel, 'go', 'default');
  expect(executed).toHaveLength(1);
});

test("headless -p: a required policy's ask at a stage after the rules suggests no rule either", async () => {
  const { kernel } = await bootRules(dirs, { plugins: [uiHeadless, policy(true)], steps: deploy() });
  const ui = kernel.container.getAll<UserInterface>(TOKENS.UserInterface).find((u) => u.name === 'headless');
  kernel.activateUi(ui!);
  await runPrompt(kernel, 'go', 'default');
  const result = toolResults(kernel)[0]!;
  expect(result).not.toContain('--allowedTools "');
  expect(result).toContain('The plugin team-policy asks');
});

test("an approver's \"always\" for a required policy's ask runs the call once and saves no rule; the dialogs offer only once / reject", async () => {
  const seen: ApprovalRequest[] = [];
  const { kernel } = await bootRules(dirs, {
    plugins: [policy(true)],
    approve: async (request) => {
      seen.push(request);
      return { choice: 'allow_always', answeredBy: 'test-ui' };
    },
    steps: [useTools([call('bash', { command: 'echo deploy' })]), useTools([call('bash', { command: 'echo deploy' })]), say('ok')],
  });
  await runPrompt(kernel, 'go', 'default');
  // Asked both times: the answer was taken as "allow once".
  expect(seen).toHaveLength(2);
  expect(executed).toHaveLength(2);
  expect(seen[0]!.allowRuleLifts).toBe(false);
  expect(existsSync(approvalsFile(dirs.root, dirs.home))).toBe(false);
  expect(kernel.container.get<Approvals>(APPROVALS).list()).toEqual([]);
  expect(permissionOptions(seen[0]!).map((o) => o.optionId)).toEqual(['allow_once', 'deny']);
  expect(approvalChoices(seen[0]!).map((c) => c.choice)).toEqual(['allow_once', 'deny']);
});

test("the mode's question is lifted by an allow rule: every answer is offered", async () => {
  const seen: ApprovalRequest[] = [];
  const { kernel } = await bootRules(dirs, {
    approve: async (request) => {
      seen.push(request);
      return { choice: 'allow_once', answeredBy: 'test-ui' };
    },
    steps: [useTools([call('bash', { command: 'make build' })]), say('ok')],
  });
  await runPrompt(kernel, 'go', 'default');
  expect(seen[0]!.allowRuleLifts).toBe(true);
  expect(permissionOptions(seen[0]!).map((o) => o.optionId)).toEqual(['allow_always', 'allow_session', 'allow_once', 'deny']);
});
