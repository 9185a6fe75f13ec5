/**
 * A deny or ask rule naming a sub-agent type (`Agent(general)`, `Task(writer)`, `Agent(explore)`)
 * holds whichever route starts that type: the agent tool, a fork skill (its `agent:`, or general
 * when it names none; loaded by the model or typed as /name), a command file with
 * `context: fork`, a hooks.yaml `subagent` action, any plugin using TOKENS.SubagentRunner. A deny
 * refuses the start naming the rule; an ask asks (no one to answer: refused); without such a rule
 * nothing new is asked.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { loadManagedPolicy } from '../../../config/managed-settings.js';
import { reporterOutput } from '../../../kernel/output-route.js';
import customCommands from '../../../plugins/custom-commands/index.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import skills from '../../../plugins/skills/index.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { ApprovalOutcome, ApprovalRequest, PermissionMode } from '../../../types/permissions.js';
import type { SubagentRunner } from '../../../types/subagents.js';
import { TOKENS } from '../../../types/tokens.js';
import type { Tool } from '../../../types/tools.js';
import type { MewcodePlugin } from '../../../types/plugin.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools, type Step } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { trustPlugin } from '../permission-rules/helpers.js';
import { skillsConfig } from '../skills/helpers.js';

afterEach(() => removeTempDirs());

const fake = (name: string, readOnly: boolean): Tool => ({ name, description: name, inputSchema: { type: 'object' }, readOnly, async execute() { return { content: 'ok' }; } });

function put(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

interface Setup {
  managed?: string;
  userSettings?: string;
  hooks?: string;
  extra?: MewcodePlugin[];
}

async function boot(steps: Step[], setup: Setup, approve?: (request: ApprovalRequest) => Promise<ApprovalOutcome | undefined>) {
  const root = temp('start-perm-root-');
  const home = temp('start-perm-home-');
  put(path.join(home, '.claude', 'agents', 'writer.md'), '---\nname: writer\ndescription: writes\n---\nYou write.\n');
  put(path.join(home, '.claude', 'skills', 'fk', 'SKILL.md'), '---\nname: fk\ndescription: fork general\ncontext: fork\nagent: GENERAL\n---\nDo the thing.\n');
  put(path.join(home, '.claude', 'skills', 'fw', 'SKILL.md'), '---\nname: fw\ndescription: fork writer\ncontext: fork\nagent: Writer\n---\nDo the thing.\n');
  put(path.join(home, '.claude', 'skills', 'fp', 'SKILL.md'), '---\nname: fp\ndescription: fork plain\ncontext: fork\n---\nDo the thing.\n');
  put(path.join(home, '.claude', 'skills', 'fe', 'SKILL.md'), '---\nname: fe\ndescription: fork explore\ncontext: fork\nagent: Explore\n---\nDo the thing.\n');
  put(path.join(home, '.claude', 'commands', 'cf.md'), '---\ndescription: fork cmd\ncontext: fork\nagent: general-purpose\n---\nDo it.\n');
  if (setup.userSettings) put(path.join(home, '.mewcode', 'settings.yaml'), setup.userSettings);
  if (setup.hooks) put(path.join(home, '.mewcode', 'hooks.yaml'), setup.hooks);
  let managed;
  if (setup.managed) {
    const file = path.join(temp('start-perm-managed-'), 'managed-settings.yaml');
    writeFileSync(file, setup.managed);
    managed = await loadManagedPolicy({ env: {}, candidates: [{ file, named: true }] });
  }
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true });
  const plugins = [
    toolsPlugin([fake('read_file', true), fake('bash', false)], 'fake-tools'),
    createPermissionRulesPlugin(),
    trustPlugin(trust),
    skills,
    customCommands,
    createHooksPlugin({ env: { PATH: process.env.PATH } }),
    createSubagentsPlugin(),
    ...(setup.extra ?? []),
  ];
  const booted = await bootKernel(steps, plugins, { projectRoot: root, homeDir: home, config: skillsConfig({ watch: false }), ...(managed ? { managed } : {}) });
  if (approve) booted.kernel.output.attach({ ...reporterOutput(booted.reporter), approve });
  const runner = booted.kernel.container.get<SubagentRunner>(TOKENS.SubagentRunner);
  const command = (name: string, mode: PermissionMode = 'bypassPermissions') => booted.kernel.commands().find((c) => c.name === name)!.run(booted.kernel.session, '', { mode });
  return { ...booted, runner, command, root, home };
}

const DENY = 'permissions:\n  deny: ["Agent(general)", "Task(writer)"]\n';
const SUB_ANSWER = 'SUB-AGENT RAN';
const subagentRequests = (requests: readonly { system: unknown }[]) => requests.filter((r) => JSON.stringify(r.system).includes('Do the thing') || JSON.stringify(r.system).includes('You write') || JSON.stringify(r.system).includes('general-purpose sub-agent')).length;

describe('a managed deny on a sub-agent type holds on every route', () => {
  it('a fork skill typed as /name (agent: GENERAL, agent: Writer, no agent: general) and a fork command file are refused, naming the rule; nothing is sent', async () => {
    const { command, model } = await boot([say(SUB_ANSWER)], { managed: DENY });
    for (const [name, rule] of [['fk', 'Agent(general)'], ['fw', 'Task(writer)'], ['fp', 'Agent(general)'], ['cf', 'Agent(general)']] as const) {
      const result = await command(name);
      expect(result.isError).toBe(true);
      expect(result.output).toMatch(/^The sub-agent "(general|writer)" was not started: Permission denied by permission-rules:managed/);
      expect(result.output).toContain(`"${rule}"`);
      expect(result.output).toContain('managed-settings.yaml:2:');
    }
    expect(model.requests).toHaveLength(0);
  });

  it('a fork skill the model loads (load_skill) is refused, the refusal its tool result', async () => {
    const { kernel, model } = await boot([useTools([call('load_skill', { name: 'fk' })]), say(SUB_ANSWER), say('done')], { managed: DENY });
    const events = await runPrompt(kernel, 'go', 'bypassPermissions');
    const results = events.filter((e) => e.type === 'tool_end').map((e) => (e as { result: { content: string } }).result.content);
    expect(results[0]).toMatch(/The sub-agent "general" was not started: Permission denied by permission-rules:managed: .*"Agent\(general\)"/);
    expect(subagentRequests(model.requests)).toBe(0);
  });

  it("a hooks.yaml subagent action naming the type does not start it (the hook fails, said); the user's prompt still runs", async () => {
    const hooks = 'hooks:\n  - name: h\n    event: UserPromptSubmit\n    action: { type: subagent, agent_name: general, prompt: "check" }\n';
    const { kernel, model, reporter } = await boot([say('main answer')], { managed: DENY, hooks });
    await runPrompt(kernel, 'go', 'bypassPermissions');
    expect(model.requests).toHaveLength(1);
    expect(reporter.warnings.some((w) => w.includes('hook h') && w.includes('The sub-agent "general" was not started: Permission denied by permission-rules:managed'))).toBe(true);
  });

  it("any plugin's start through TOKENS.SubagentRunner is refused; a type no rule names starts", async () => {
    const { kernel, runner } = await boot([say(SUB_ANSWER)], { managed: DENY });
    const denied = await runner.run({ parent: kernel.session, prompt: 'p', role: 'general' });
    expect(denied).toMatchObject({ isError: true, iterations: 0 });
    expect(denied.text).toContain('"Agent(general)"');
    expect(await runner.run({ parent: kernel.session, prompt: 'p', role: 'explore' })).toMatchObject({ isError: false, text: SUB_ANSWER });
  });
});

describe('an ask on a sub-agent type, and ordinary use', () => {
  const ASK = 'permissions:\n  ask: ["Agent(explore)"]\n';

  it('a managed ask asks the user for a fork skill with agent: Explore: a yes starts it, a no refuses', async () => {
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalOutcome['choice'] = 'allow_once';
    const { command } = await boot([say(SUB_ANSWER), say(SUB_ANSWER)], { managed: ASK }, async (request) => {
      asked.push(request);
      return { choice: answer, answeredBy: 'user' };
    });
    expect(await command('fe', 'default')).toMatchObject({ output: SUB_ANSWER });
    expect(asked.map((r) => [r.toolName, r.target, r.verdict.layer])).toEqual([['agent', { kind: 'named', name: 'explore', aliases: ['Explore'] }, 'permission-rules:managed']]);
    answer = 'deny';
    expect((await command('fe', 'default')).output).toMatch(/^The sub-agent "explore" was not started: User denied/);
    expect(asked).toHaveLength(2);
  });

  it('with no one to ask (headless), a managed ask refuses the start with the usual hint', async () => {
    const { command, model } = await boot([say(SUB_ANSWER)], { managed: ASK });
    expect((await command('fe', 'default')).output).toMatch(/^The sub-agent "explore" was not started: Permission required: agent needs approval \(.*"Agent\(explore\)"/);
    expect(model.requests).toHaveLength(0);
  });

  it("the user's own deny rule naming the type holds too", async () => {
    const { command } = await boot([say(SUB_ANSWER)], { userSettings: 'permissions:\n  deny: ["Task(writer)"]\n' });
    expect((await command('fw')).output).toMatch(/^The sub-agent "writer" was not started: Permission denied by permission-rules.*"Task\(writer\)"/);
  });

  it('without rules every route starts as before, in every mode, and nobody is asked', async () => {
    const asked: ApprovalRequest[] = [];
    const steps = Array.from({ length: 12 }, () => say(SUB_ANSWER));
    const { command } = await boot(steps, {}, async (request) => {
      asked.push(request);
      return { choice: 'deny', answeredBy: 'user' };
    });
    for (const mode of ['default', 'plan', 'acceptEdits'] as const) {
      for (const name of ['fk', 'fp', 'fe', 'cf']) expect([name, mode, await command(name, mode)]).toMatchObject([name, mode, { output: SUB_ANSWER }]);
    }
    expect(asked).toEqual([]);
  });
});

describe("a required policy plugin's preToolUse tap judges the start; an ordinary plugin's does not", () => {
  const policy = (name: string, required: boolean, seen: string[]): MewcodePlugin => ({
    name,
    ...(required ? { required: true } : {}),
    apply(kernel) {
      kernel.hooks.preToolUse.tapPromise(name, async (decision, context) => {
        seen.push(context.call.name);
        return context.call.name === 'agent' ? { ...decision, decision: 'deny', reason: `${name} forbids sub-agents` } : decision;
      });
    },
  });

  it('a required plugin denying agent in preToolUse refuses a fork skill, a fork command and a runner start', async () => {
    const seen: string[] = [];
    const { command, runner, kernel, model } = await boot([say(SUB_ANSWER)], { extra: [policy('org-policy', true, seen)] });
    for (const name of ['fk', 'cf']) expect((await command(name)).output).toMatch(/^The sub-agent "general" was not started: .*org-policy forbids sub-agents/);
    expect((await runner.run({ parent: kernel.session, prompt: 'p', role: 'explore' })).text).toContain('org-policy forbids sub-agents');
    expect(seen).toEqual(['agent', 'agent', 'agent']);
    expect(model.requests).toHaveLength(0);
  });

  it("an ordinary plugin's preToolUse tap is not asked about a start (a user's hook starting a sub-agent is not asked about its own start)", async () => {
    const seen: string[] = [];
    const { command } = await boot([say(SUB_ANSWER)], { extra: [policy('ordinary', false, seen)] });
    expect(await command('fk')).toMatchObject({ output: SUB_ANSWER });
    expect(seen).toEqual([]);
  });
});
