/**
 * A required plugin's decision is not undone by anything a user controls (kernel/permission-chain.ts,
 * kernel/policy-taps.ts, kernel/decision-guards.ts). Real kernels, the real permission-rules and
 * hooks plugins; the policies and the user's own plugins are loaded from files, as configuration
 * and managed settings load them.
 *
 * - checkPermission: a user plugin's allow or ask staged before the organisation's deny, the user's
 *   `--allowedTools` allow before a policy staged after the rules, or bypassPermissions, never ends
 *   the chain before the policy is asked. A required allow lifts no deny, and the question put is
 *   the organisation's.
 * - preToolUse: a required plugin's rewrite (`deploy` → `deploy --dry-run`) runs, whatever a user
 *   plugin's later tap, the user's PreToolUse hook (`updatedInput`) or an approver's arguments
 *   make of it: its taps run after theirs, and on the second pass a required plugin that would
 *   still change the call denies it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadManagedPolicy } from '../../config/managed-settings.js';
import { createWorkspaceTrust } from '../../config/trust.js';
import { Kernel } from '../../kernel/kernel.js';
import { MemoryReporter } from '../../kernel/reporter.js';
import { createHooksPlugin } from '../../plugins/hooks/index.js';
import { createPermissionRulesPlugin } from '../../plugins/permission-rules/index.js';
import type { ResolvedConfig } from '../../types/config.js';
import type { AgentEvent } from '../../types/events.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionMode } from '../../types/permissions.js';
import type { CliOptions, UserInterface } from '../../types/plugin.js';
import type { Tool, ToolInput } from '../../types/tools.js';
import { bootKernel, collect } from '../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../support/memory-provider.js';
import { toolsPlugin } from '../support/test-tools.js';
import { removeTempDirs, temp } from '../support/temp-dirs.js';

afterEach(() => removeTempDirs());

const configWith = (sections: Record<string, unknown>): ResolvedConfig => ({ layers: [], warnings: [], section: (key) => sections[key], locate: () => undefined });

const cli = (overrides: Partial<CliOptions> = {}): CliOptions => ({ outputFormat: 'text', permissionMode: 'default', permissionModeGiven: true, debugBoot: false, cwd: '/', allowedTools: [], disallowedTools: [], ...overrides });

/** A bash stand-in: a command-running tool that records the command instead of running it. */
function bashTool(ran: string[]): Tool {
  return {
    name: 'bash',
    description: 'Runs a command.',
    inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
    readOnly: false,
    category: 'exec',
    permissionTarget: (input: ToolInput) => ({ kind: 'command', command: String(input.command) }),
    async execute(input: ToolInput) {
      ran.push(String(input.command));
      return { content: `ran ${String(input.command)}` };
    },
  };
}

/** The organisation's layer: no deploys (a deny), or deploys asked about, at `stage`. */
const acmePolicy = (stage: number, decision: 'deny' | 'ask' | 'allow' = 'deny'): string => `export default { name: 'acme-policy', apply(k) {
  k.hooks.checkPermission.tapPromise({ name: 'acme-policy', stage: ${stage} }, async (request) =>
    request.target.kind === 'command' && /\\bdeploy\\b/.test(request.target.command) ? { decision: '${decision}', layer: 'acme-policy', reason: 'acme policy: ${decision} deploys' } : undefined);
} };`;

/** A user's own plugin answering every call at `stage`. */
const userLayer = (stage: number, decision: 'allow' | 'ask' | 'deny'): string => `export default { name: 'my-layer', apply(k) {
  k.hooks.checkPermission.tapPromise({ name: 'my-layer', stage: ${stage} }, async () => ({ decision: '${decision}', layer: 'my-layer', reason: 'harmless, approve it' }));
} };`;

/** The active UI: the person approves whatever is asked (optionally with arguments of their own). */
function approvingUi(kernel: Kernel, answer: Partial<ApprovalOutcome> = {}): ApprovalRequest[] {
  const asked: ApprovalRequest[] = [];
  const ui: UserInterface = {
    name: 'test-ui',
    handles: () => true,
    run: async () => 0,
    output: {
      notify: () => undefined,
      approve: async (request) => {
        asked.push(request);
        return { choice: 'allow_once', answeredBy: 'user', ...answer };
      },
    },
  };
  kernel.activateUi(ui);
  return asked;
}

const toolResults = (events: AgentEvent[]): string[] => events.flatMap((event) => (event.type === 'tool_end' ? [event.result.content] : []));

interface Setup {
  /** Files in the project: name → source. */
  files: Record<string, string>;
  plugins: unknown[];
  command?: string;
  mode?: PermissionMode;
  cli?: Partial<CliOptions>;
}

async function runDeploy(setup: Setup): Promise<{ kernel: Kernel; ran: string[]; events: () => Promise<AgentEvent[]> }> {
  const project = temp('mc-required-');
  const home = temp('mc-required-home-');
  for (const [name, source] of Object.entries(setup.files)) writeFileSync(path.join(project, name), source);
  const ran: string[] = [];
  const { kernel } = await bootKernel([useTools([call('bash', { command: setup.command ?? './deploy prod' })]), say('done')], [toolsPlugin([bashTool(ran)]), createPermissionRulesPlugin()], {
    projectRoot: project,
    homeDir: home,
    config: configWith({ plugins: setup.plugins }),
    cli: cli(setup.cli),
  });
  return { kernel, ran, events: () => collect(kernel.run({ prompt: 'deploy it', mode: setup.mode ?? 'default' })) };
}

describe('checkPermission: a required layer is asked before anyone else’s allow or ask stands', () => {
  test('a user plugin’s allow at stage 210 does not end the chain before the managed policy’s deny at 250', async () => {
    const project = temp('mc-required-');
    const managedDir = temp('mc-managed-');
    writeFileSync(path.join(managedDir, 'acme-policy.mjs'), acmePolicy(250));
    writeFileSync(path.join(managedDir, 'managed-settings.yaml'), 'plugins: [./acme-policy.mjs]\n');
    writeFileSync(path.join(project, 'auto-approve.mjs'), userLayer(210, 'allow'));
    const managed = await loadManagedPolicy({ env: {}, candidates: [{ file: path.join(managedDir, 'managed-settings.yaml'), named: true }] });
    const ran: string[] = [];
    const { kernel } = await bootKernel([useTools([call('bash', { command: 'echo deploy > deployed.txt' }), call('bash', { command: 'ls' })]), say('done')], [toolsPlugin([bashTool(ran)]), createPermissionRulesPlugin()], {
      projectRoot: project,
      managed,
      config: configWith({ plugins: ['./auto-approve.mjs'] }),
    });
    const events = await collect(kernel.run({ prompt: 'deploy it', mode: 'default' }));
    expect(toolResults(events)[0]).toMatch(/^Permission denied by acme-policy: acme policy: deny deploys/);
    // What the policy does not cover, the user's own layer still allows.
    expect(ran).toEqual(['ls']);
  });

  test('a user plugin’s ask at 210, approved by the person, does not run what the required policy at 250 denies', async () => {
    const { kernel, ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(250), 'ask.mjs': userLayer(210, 'ask') }, plugins: [{ use: './policy.mjs', required: true }, './ask.mjs'] });
    const asked = approvingUi(kernel);
    expect(toolResults(await events())).toEqual([expect.stringMatching(/^Permission denied by acme-policy/)]);
    expect(asked).toEqual([]);
    expect(ran).toEqual([]);
  });

  test('at the same stage too: a user plugin applied first, allowing at 250, does not end the chain before the policy at 250', async () => {
    const { ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(250), 'allow.mjs': userLayer(250, 'allow') }, plugins: ['./allow.mjs', { use: './policy.mjs', required: true }] });
    expect(toolResults(await events())).toEqual([expect.stringMatching(/^Permission denied by acme-policy/)]);
    expect(ran).toEqual([]);
  });

  test.each([
    ['default', 'default' as const],
    ['bypassPermissions', 'bypassPermissions' as const],
  ])('%s mode: the user’s --allowedTools Bash (a session rule at 300) does not pre-empt a required policy staged at 350', async (_label, mode) => {
    const { ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(350) }, plugins: [{ use: './policy.mjs', required: true }], cli: { allowedTools: ['Bash'], permissionMode: mode }, mode });
    expect(toolResults(await events())).toEqual([expect.stringMatching(/^Permission denied by acme-policy/)]);
    expect(ran).toEqual([]);
  });

  test('control: a policy that is not required is still pre-empted (its stage is the user’s to choose)', async () => {
    const { ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(350) }, plugins: ['./policy.mjs'], cli: { allowedTools: ['Bash'] } });
    expect(toolResults(await events())).toEqual(['ran ./deploy prod']);
    expect(ran).toEqual(['./deploy prod']);
  });

  test('a required allow lifts no deny: the user’s own deny at 210, or the user’s deny rule before a policy at 350', async () => {
    const first = await runDeploy({ files: { 'policy.mjs': acmePolicy(250, 'allow'), 'deny.mjs': userLayer(210, 'deny') }, plugins: [{ use: './policy.mjs', required: true }, './deny.mjs'] });
    expect(toolResults(await first.events())).toEqual([expect.stringMatching(/^Permission denied by my-layer/)]);
    const second = await runDeploy({ files: { 'policy.mjs': acmePolicy(350, 'allow') }, plugins: [{ use: './policy.mjs', required: true }], cli: { disallowedTools: ['Bash'] }, mode: 'bypassPermissions' });
    expect(toolResults(await second.events())).toEqual([expect.stringMatching(/^Permission denied by permission-rules/)]);
    expect([...first.ran, ...second.ran]).toEqual([]);
  });

  test('both ask: the question put to the person is the organisation’s, not the user plugin’s', async () => {
    const { kernel, ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(250, 'ask'), 'ask.mjs': userLayer(210, 'ask') }, plugins: [{ use: './policy.mjs', required: true }, './ask.mjs'] });
    const asked = approvingUi(kernel);
    await events();
    expect(asked.map((request) => [request.verdict.layer, request.pluginsMayAllow])).toEqual([['acme-policy', false]]);
    expect(ran).toEqual(['./deploy prod']);
  });

  test('a user plugin’s allow before a required ask: the person is asked (no plugin may answer it)', async () => {
    const { kernel, ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(250, 'ask'), 'allow.mjs': userLayer(210, 'allow') }, plugins: [{ use: './policy.mjs', required: true }, './allow.mjs'], cli: { allowedTools: ['Bash'] } });
    const asked = approvingUi(kernel);
    await events();
    expect(asked.map((request) => [request.verdict.layer, request.pluginsMayAllow])).toEqual([['acme-policy', false]]);
    expect(ran).toEqual(['./deploy prod']);
  });
});

/** A user's own plugin that answers every question itself: a preToolUse allow, or a requestApproval allow. */
const selfApprover = (how: 'preToolUse' | 'requestApproval'): string =>
  how === 'preToolUse'
    ? `export default { name: 'self-approve', apply(k) { k.hooks.preToolUse.tapPromise('self-approve', async (decision) => ({ ...decision, decision: 'allow', reason: 'fine by me' })); } };`
    : `export default { name: 'self-approve', apply(k) { k.hooks.requestApproval.tapPromise('self-approve', async () => ({ choice: 'allow_once', answeredBy: 'self-approve' })); } };`;

/**
 * A custom build without the permission-mode plugin (a team's own mode layer, or none), where the
 * organisation's layer may tap at the mode's stage or later and be the one that asks.
 */
async function runDeployWithoutModeLayer(policy: { use: string; required?: true } | string, approver: 'preToolUse' | 'requestApproval') {
  const project = temp('mc-required-');
  writeFileSync(path.join(project, 'policy.mjs'), acmePolicy(450, 'ask'));
  writeFileSync(path.join(project, 'approve.mjs'), selfApprover(approver));
  const ran: string[] = [];
  const model = memoryModel([useTools([call('bash', { command: './deploy prod' })]), say('done')]);
  const kernel = await Kernel.create({
    plugins: [model.plugin, toolsPlugin([bashTool(ran)]), createPermissionRulesPlugin()],
    projectRoot: project,
    homeDir: temp('mc-required-home-'),
    env: memoryEnv,
    reporter: new MemoryReporter(),
    config: configWith({ plugins: [policy, './approve.mjs'] }),
    cli: cli(),
  });
  return { kernel, ran, events: () => collect(kernel.run({ prompt: 'deploy it', mode: 'default' })) };
}

describe('a required layer that asks after the mode’s stage (a build without the mode layer): only the person answers it', () => {
  test.each(['preToolUse', 'requestApproval'] as const)('a user plugin’s %s allow does not answer the organisation’s ask at 450 (no person: denied)', async (how) => {
    const { kernel, ran, events } = await runDeployWithoutModeLayer({ use: './policy.mjs', required: true }, how);
    expect(toolResults(await events())).toEqual([expect.stringMatching(/^Permission required: bash needs approval \(acme policy: ask deploys\)/)]);
    expect(ran).toEqual([]);
    await kernel.shutdown();
  });

  test('with a person there, the question is put to them, marked as one no plugin may answer', async () => {
    const { kernel, ran, events } = await runDeployWithoutModeLayer({ use: './policy.mjs', required: true }, 'preToolUse');
    const asked = approvingUi(kernel);
    await events();
    expect(asked.map((request) => [request.verdict.layer, request.pluginsMayAllow])).toEqual([['acme-policy', false]]);
    expect(ran).toEqual(['./deploy prod']);
    await kernel.shutdown();
  });

  test('control: the same layer not required asks the mode’s kind of question, which the user’s plugin may answer', async () => {
    const { kernel, ran, events } = await runDeployWithoutModeLayer('./policy.mjs', 'preToolUse');
    expect(toolResults(await events())).toEqual(['ran ./deploy prod']);
    expect(ran).toEqual(['./deploy prod']);
    await kernel.shutdown();
  });
});

/** The organisation's rewrite: a deploy runs as a dry run. Written as a fresh copy on every call, so an unchanged call is an equal copy, not the same object. */
const DRY_RUN_POLICY = (stage: number): string => `export default { name: 'acme-dryrun', apply(k) {
  k.hooks.preToolUse.tapPromise({ name: 'acme-dryrun', stage: ${stage} }, async (decision, context) => {
    const command = decision.input.command;
    if (context.call.name !== 'bash' || typeof command !== 'string') return decision;
    const fixed = /\\bdeploy\\b/.test(command) && !command.includes('--dry-run') ? command.replace(/\\bdeploy\\b/, 'deploy --dry-run') : command;
    return { ...decision, input: { ...decision.input, command: fixed } };
  });
} };`;

/** A user's own plugin that tidies commands: drops the flags it does not like, at a later stage. */
const TIDY = `export default { name: 'tidy', apply(k) {
  k.hooks.preToolUse.tapPromise({ name: 'tidy', stage: 100 }, async (decision) => {
    const command = decision.input.command;
    return typeof command === 'string' && command.includes(' --dry-run') ? { ...decision, input: { ...decision.input, command: command.replace(' --dry-run', '') } } : decision;
  });
} };`;

describe('requestApproval: a required layer’s question is the person’s', () => {
  /** A user's own plugin that answers every question with an allow. */
  const AUTO_APPROVE = `export default { name: 'auto-approve', apply(k) {
    k.hooks.requestApproval.tapPromise({ name: 'auto-approve', stage: -1000 }, async () => ({ choice: 'allow_once', answeredBy: 'auto-approve' }));
  } };`;

  test('a user plugin’s requestApproval allow is no answer to a required policy’s ask: the person is asked', async () => {
    const { kernel, ran, events } = await runDeploy({ files: { 'policy.mjs': acmePolicy(250, 'ask'), 'auto.mjs': AUTO_APPROVE }, plugins: [{ use: './policy.mjs', required: true }, './auto.mjs'] });
    const asked = approvingUi(kernel, { choice: 'deny', reason: 'not today' });
    expect(toolResults(await events())).toEqual([expect.stringMatching(/^User denied: not today/)]);
    expect(asked.map((request) => [request.verdict.layer, request.pluginsMayAllow])).toEqual([['acme-policy', false]]);
    expect(ran).toEqual([]);
  });
});

describe('preToolUse: a required plugin’s rewrite is what runs', () => {
  test('a user plugin’s later tap (stage 100) does not strip the --dry-run the required policy (stage 0) added', async () => {
    const { ran, events } = await runDeploy({ files: { 'policy.mjs': DRY_RUN_POLICY(0), 'tidy.mjs': TIDY }, plugins: [{ use: './policy.mjs', required: true }, './tidy.mjs'], mode: 'bypassPermissions' });
    expect(toolResults(await events())).toEqual(['ran ./deploy --dry-run prod']);
    expect(ran).toEqual(['./deploy --dry-run prod']);
  });

  test('nor does the user’s PreToolUse hook (updatedInput) in the build’s hooks plugin, with the policy at stage -100', async () => {
    const project = temp('mc-required-');
    const home = temp('mc-required-home-');
    writeFileSync(path.join(project, 'policy.mjs'), DRY_RUN_POLICY(-100));
    const undo = JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { command: './deploy prod' } } });
    mkdirSync(path.join(home, '.mewcode'));
    writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: `cat >/dev/null; printf '%s' '${undo}'` }] }] } }));
    const ran: string[] = [];
    const { kernel } = await bootKernel([useTools([call('bash', { command: './deploy prod' })]), say('done')], [toolsPlugin([bashTool(ran)]), createHooksPlugin({ env: { PATH: process.env.PATH } })], {
      projectRoot: project,
      homeDir: home,
      trust: await createWorkspaceTrust({ projectRoot: project, homeDir: home, flag: true }),
      config: configWith({ plugins: [{ use: './policy.mjs', required: true }] }),
    });
    try {
      const events = await collect(kernel.run({ prompt: 'deploy it', mode: 'bypassPermissions' }));
      expect(toolResults(events)).toEqual(['ran ./deploy --dry-run prod']);
      expect(ran).toEqual(['./deploy --dry-run prod']);
    } finally {
      await kernel.shutdown();
    }
  });

  test('an approver’s arguments that drop the --dry-run: the required policy would change them, so the call is denied', async () => {
    const { kernel, ran, events } = await runDeploy({ files: { 'policy.mjs': DRY_RUN_POLICY(0) }, plugins: [{ use: './policy.mjs', required: true }] });
    const asked = approvingUi(kernel, { answeredBy: 'canUseTool', input: { command: './deploy prod' } });
    expect(toolResults(await events())).toEqual([expect.stringMatching(/^\[hook acme-dryrun\] plugin acme-dryrun, which is required, would change this call's arguments/)]);
    expect(asked.map((request) => request.input.command)).toEqual(['./deploy --dry-run prod']);
    expect(ran).toEqual([]);
  });

  test('control: arguments the policy leaves as they are (an equal copy) run, the approver’s too', async () => {
    const { kernel, ran, events } = await runDeploy({ files: { 'policy.mjs': DRY_RUN_POLICY(0) }, plugins: [{ use: './policy.mjs', required: true }], command: 'ls' });
    approvingUi(kernel, { input: { command: 'ls -l' } });
    expect(toolResults(await events())).toEqual(['ran ls -l']);
    expect(ran).toEqual(['ls -l']);
  });
});
