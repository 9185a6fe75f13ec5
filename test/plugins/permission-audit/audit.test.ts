/** A11: the audit log of every permission decision and executed call. */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Container, ContainerModule } from 'inversify';
import { createHooks } from '../../../kernel/hooks.js';
import type { Kernel } from '../../../kernel/kernel.js';
import { definePlugin, type KernelApi } from '../../../types/plugin.js';
import type { PermissionTarget, Tool } from '../../../types/tools.js';
import { AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS, auditFile, createPermissionAuditPlugin, decisionRecord } from '../../../plugins/permission-audit/index.js';
import { verifyAuditLog } from '../../../plugins/permission-audit/verify.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { LIMITS } from '../../../plugins/output-limits/limits.js';
import type { OutputLimits } from '../../../types/output-limits.js';
import { TOKENS } from '../../../types/tokens.js';
import { OUTPUT_LIMIT_RANGES } from '../../../types/output-limit-ranges.js';
import { runPrompt } from '../../support/boot.js';
import { call, say, useTools, type Step } from '../../support/memory-provider.js';
import { abortableDelay, toolsPlugin } from '../../support/test-tools.js';
import { bootRules, tempDirs, writeSettings, type Dirs } from '../permission-rules/helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

type Line = Record<string, unknown>;
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
function readLines(file: string): Line[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Line);
}

const slowTool: Tool = {
  name: 'slow_exec',
  description: 'waits',
  inputSchema: { type: 'object' },
  readOnly: false,
  async execute(_input, ctx) {
    await abortableDelay(30, ctx.signal);
    return { content: 'héllo' };
  },
};

const approveWrites = definePlugin({
  name: 'test-ui',
  apply(kernel) {
    kernel.hooks.requestApproval.tapPromise('test-ui', async (request) =>
      request.toolName === 'write_file' ? { choice: 'allow_once', answeredBy: 'test-ui' } : { choice: 'deny', answeredBy: 'test-ui', reason: 'not now' },
    );
  },
});

const blockHook = definePlugin({
  name: 'test-hooks',
  apply(kernel) {
    kernel.hooks.preToolUse.tapPromise('test-hooks', async (decision, context) =>
      context.call.name === 'bash' && String(context.input.command).startsWith('shutdown') ? { ...decision, decision: 'deny', reason: 'no shutdowns', by: 'guard' } : decision,
    );
  },
});

async function session(steps: Step[], plugins = [approveWrites, blockHook]): Promise<Kernel> {
  const { kernel } = await bootRules(dirs, { steps, plugins: [toolsPlugin([slowTool], 'slow'), createPermissionAuditPlugin(), ...plugins] });
  return kernel;
}

describe('audit records', () => {
  it('every decision of a session, with the deciding layer, and every executed call', async () => {
    writeSettings(dirs, 'project', { allow: ['Bash(npm test)'], deny: ['Bash(curl *)'] });
    const calls = [
      call('bash', { command: 'npm test' }), // rules allow → executed
      call('bash', { command: 'curl https://x' }), // rules deny
      call('write_file', { file_path: 'a.txt' }), // mode asks → approved once → executed
      call('bash', { command: 'ls' }), // mode asks → denied by the user
      call('bash', { command: 'shutdown now' }), // PreToolUse block
      call('slow_exec', {}), // mode asks → denied
    ];
    const kernel = await session([useTools(calls), say('done')]);
    await runPrompt(kernel, 'go', 'default');
    await kernel.shutdown();

    const lines = readLines(auditFile(dirs.root));
    const decisions = lines.filter((l) => l.type === 'decision');
    expect(decisions.map((d) => [d.tool, d.target, d.layer, d.verdict, d.allowed])).toEqual([
      ['bash', 'npm test', 'permission-rules:project', 'allow', true],
      ['bash', 'curl https://x', 'permission-rules:project', 'deny', false],
      ['write_file', 'a.txt', 'permission-mode', 'ask', true],
      ['bash', 'ls', 'permission-mode', 'ask', false],
      ['bash', 'shutdown now', 'hook:guard', 'deny', false],
      ['slow_exec', null, 'permission-mode', 'ask', false],
    ]);
    for (const [i, d] of decisions.entries()) {
      expect(d).toMatchObject({ session: kernel.session.sessionId, tool_call_id: calls[i]!.id, mode: 'default' });
      expect(typeof d.reason).toBe('string');
      expect(new Date(String(d.time)).toISOString()).toBe(d.time);
    }
    expect(decisions[1]!.reason).toContain('Bash(curl *)');
    expect(decisions[2]!.approval).toEqual({ choice: 'allow_once', answered_by: 'test-ui' });
    expect(decisions[3]!.approval).toEqual({ choice: 'deny', answered_by: 'test-ui', reason: 'not now' });
    expect(decisions[0]).not.toHaveProperty('approval');

    const executed = lines.filter((l) => l.type === 'executed');
    expect(executed.map((e) => [e.tool, e.tool_call_id, e.result_bytes, e.is_error])).toEqual([
      ['bash', calls[0]!.id, Buffer.byteLength('bash ok'), false],
      ['write_file', calls[2]!.id, Buffer.byteLength('write_file ok'), false],
    ]);
    for (const e of executed) expect(typeof e.duration_ms).toBe('number');
    expect(await verifyAuditLog(auditFile(dirs.root))).toEqual({ ok: true, records: lines.length, files: 1 });
  });

  it('records the duration and size of an executed call', async () => {
    const c = call('slow_exec', {});
    const kernel = await session([useTools([c]), say('done')], []);
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const executed = readLines(auditFile(dirs.root)).find((l) => l.type === 'executed')!;
    expect(executed).toMatchObject({ tool: 'slow_exec', tool_call_id: c.id, result_bytes: 6, is_error: false });
    expect(executed.duration_ms as number).toBeGreaterThanOrEqual(25);
  });

  it('records a padded command whole: the tail after 500 characters of echo is in the record', async () => {
    const command = `echo "${'build step ok '.repeat(40)}" >/dev/null; touch TAIL_RAN`;
    const kernel = await session([useTools([call('bash', { command })]), say('done')], []);
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const decision = readLines(auditFile(dirs.root)).find((l) => l.type === 'decision')!;
    expect(decision.target).toBe(command);
    expect(decision).not.toHaveProperty('target_sha256');
    expect(JSON.parse(String(decision.input))).toEqual({ command });
  });

  it('at the default cap a target is whole; one character past it, cut with its whole length and SHA-256', async () => {
    const max = LIMITS.auditTargetMaxChars;
    const atCap = `echo ${'x'.repeat(max - 5)}`;
    const pastCap = `${atCap.slice(0, max)}; touch T`;
    const kernel = await session([useTools([call('bash', { command: atCap }), call('bash', { command: pastCap })]), say('done')], []);
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const [whole, cut] = readLines(auditFile(dirs.root)).filter((l) => l.type === 'decision');
    expect(atCap).toHaveLength(max);
    expect(whole!.target).toBe(atCap);
    expect(whole).not.toHaveProperty('target_chars');
    expect(cut).toMatchObject({ target: `${pastCap.slice(0, max)}…`, target_chars: pastCap.length, target_sha256: sha256(pastCap) });
    expect(cut).toMatchObject({ input_chars: JSON.stringify({ command: pastCap }).length, input_sha256: sha256(JSON.stringify({ command: pastCap })) });
  });

  it('a write failure is one visible warning, never a crash; no tool runs unrecorded', async () => {
    writeFileSync(path.join(dirs.root, '.mewcode'), 'not a directory');
    const { kernel, reporter } = await bootRules(dirs, {
      steps: [useTools([call('bash', { command: 'a' }), call('bash', { command: 'b' })]), say('done')],
      plugins: [createPermissionAuditPlugin()],
    });
    const events = await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    expect(events.at(-1)).toMatchObject({ type: 'done', reason: 'completed' });
    const failures = reporter.warnings.filter((w) => w.startsWith('permission-audit: cannot write the audit log'));
    expect(failures).toHaveLength(1);
    const results = events.filter((e) => e.type === 'tool_end').map((e) => (e as { result: { content: string } }).result.content);
    expect(results).toEqual([expect.stringMatching(/^Permission denied by permission-audit: the permission audit log cannot be written/), expect.stringMatching(/^Permission denied by permission-audit/)]);
  });
});

describe('caps and other records', () => {
  it('copies its caps once, at apply: a cap below its floor is the floor, and a later change of the service reaches no record', async () => {
    writeSettings(dirs, 'project', { deny: ['Bash(curl *)'] });
    const limits = { ...createOutputLimits(path.join(dirs.root, 'spill')), auditTargetMaxChars: 0 };
    const customLimits = definePlugin({ name: 'custom-limits', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.OutputLimits).toConstantValue(limits)) });
    const { kernel, reporter } = await bootRules(dirs, { steps: [useTools([call('bash', { command: 'curl https://x' })]), say('done')], plugins: [customLimits, createPermissionAuditPlugin()] });
    // The service's own object changes after the boot (its owner holds it; the container hands out a sealed view that reads it).
    limits.auditReasonMaxChars = 0;
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const decision = readLines(auditFile(dirs.root)).find((l) => l.type === 'decision')!;
    expect(decision).toMatchObject({ target: 'curl https://x', verdict: 'deny' });
    expect(decision.reason).toContain('Bash(curl *)');
    expect(reporter.warnings).toContain('OutputLimits.auditTargetMaxChars is 0, outside the range 200..100000 any OutputLimits service is held to; 200 is used');
  });

  it('takes its caps from OutputLimits, within the ranges no plugin can pass', async () => {
    const limits: OutputLimits = { ...createOutputLimits(path.join(dirs.root, 'spill')), auditTargetMaxChars: 210, auditReasonMaxChars: 4000 };
    const customLimits = definePlugin({ name: 'custom-limits', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.OutputLimits).toConstantValue(limits)) });
    const calls = [call('bash', { command: `echo ${'z'.repeat(300)}` })];
    const { kernel, reporter } = await bootRules(dirs, { steps: [useTools(calls), say('done')], plugins: [customLimits, createPermissionAuditPlugin()] });
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const decision = readLines(auditFile(dirs.root)).find((l) => l.type === 'decision')!;
    const command = `echo ${'z'.repeat(300)}`;
    expect(decision).toMatchObject({ target: `echo ${'z'.repeat(205)}…`, target_chars: command.length, target_sha256: sha256(command) });
    expect(reporter.warnings).toEqual([]);
  });

  it('a replacement OutputLimits with 1-byte, 1-file, 1-character caps leaves the audit log whole: each cap is held to its floor, said', async () => {
    const tiny: OutputLimits = { ...createOutputLimits(path.join(dirs.root, 'spill')), auditMaxBytes: 1, auditKeepFiles: 1, auditTargetMaxChars: 1, auditReasonMaxChars: 1, bashMaxBytes: 1e8, bashMaxLines: 1e6 };
    const tinyLimits = definePlugin({ name: 'tiny-limits', replaces: ['OutputLimits'], bindings: new ContainerModule(({ bind }) => void bind(TOKENS.OutputLimits).toConstantValue(tiny)) });
    const defaults = definePlugin({ name: 'output-limits', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.OutputLimits).toConstantValue(createOutputLimits(path.join(dirs.root, 'spill')))) });
    const calls = Array.from({ length: 4 }, (_, i) => call('bash', { command: `echo ${i}${'z'.repeat(300)}` }));
    const { kernel, reporter } = await bootRules(dirs, { steps: [useTools(calls), say('done')], plugins: [defaults, tinyLimits, createPermissionAuditPlugin()] });
    const seen = kernel.container.get<OutputLimits>(TOKENS.OutputLimits);
    expect([seen.auditMaxBytes, seen.auditKeepFiles, seen.auditTargetMaxChars, seen.auditReasonMaxChars]).toEqual([1024 * 1024, 2, 200, 500]);
    expect([seen.bashMaxBytes, seen.bashMaxLines]).toEqual([1024 * 1024, 10_000]);
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const names = readdirSync(path.join(dirs.root, '.mewcode')).filter((f) => f.startsWith('audit.jsonl'));
    expect(names).toEqual(['audit.jsonl']);
    const decisions = readLines(auditFile(dirs.root)).filter((l) => l.type === 'decision');
    expect(decisions).toHaveLength(4);
    for (const decision of decisions) expect(decision.target).toBe(`${String(decision.target).slice(0, 200)}…`);
    expect(reporter.warnings).toContain('OutputLimits.auditMaxBytes is 1, outside the range 1048576..1073741824 any OutputLimits service is held to; 1048576 is used');
    expect(reporter.warnings).toContain('OutputLimits.bashMaxBytes is 100000000, outside the range 1000..1048576 any OutputLimits service is held to; 1048576 is used');
  });

  it('target and reason caps hold at their boundary, never splitting a surrogate pair', () => {
    const caps = { ...AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS, auditTargetMaxChars: 10, auditReasonMaxChars: 4 };
    const decided = (command: string, reason: string) =>
      decisionRecord(
        {
          request: { toolName: 'bash', tool: undefined, input: {}, category: 'exec', target: { kind: 'command', command }, mode: 'default', sessionId: 's', projectRoot: dirs.root },
          verdict: { decision: 'ask', layer: 'permission-mode', reason },
          allowed: false,
          toolCallId: 'c',
          sessionId: 's',
          agentId: 'main',
        },
        caps,
      );
    expect(decided('x'.repeat(10), 'abcd')).toMatchObject({ target: 'x'.repeat(10), reason: 'abcd' });
    expect(decided('x'.repeat(10), 'abcd')).not.toHaveProperty('target_sha256');
    expect(decided('x'.repeat(11), 'abcde')).toMatchObject({ target: `${'x'.repeat(10)}…`, target_chars: 11, target_sha256: sha256('x'.repeat(11)), reason: 'abcd…' });
    expect(decided(`${'x'.repeat(9)}😀`, 'ab😀')).toMatchObject({ target: `${'x'.repeat(9)}…`, target_chars: 11, target_sha256: sha256(`${'x'.repeat(9)}😀`), reason: 'ab😀' });
  });

  it('names what a named, pattern or argument call judged: the sub-agent type, the skill and its arguments, a glob pattern, an MCP tool\'s arguments', () => {
    const record = (toolName: string, target: PermissionTarget, input: Record<string, unknown>) =>
      decisionRecord({
        request: { toolName, tool: undefined, input, category: 'exec', target, mode: 'default', sessionId: 's', projectRoot: dirs.root },
        verdict: { decision: 'allow', layer: 'permission-mode' },
        allowed: true,
        toolCallId: 'c',
        sessionId: 's',
        agentId: 'main',
      });
    expect(record('agent', { kind: 'named', name: 'explore', aliases: ['Explore'] }, { subagent_type: 'explore', prompt: 'p' })).toMatchObject({
      target: 'explore',
      input: '{"prompt":"p","subagent_type":"explore"}',
    });
    expect(record('load_skill', { kind: 'named', name: 'review-pr', detail: '12 --fast' }, { name: 'review-pr', args: '12 --fast' }).target).toBe('review-pr 12 --fast');
    expect(record('glob', { kind: 'path', path: '.' }, { pattern: '**/*.pem' })).toMatchObject({ target: '.', input: '{"pattern":"**/*.pem"}' });
    // Keys sorted at every depth: the same arguments give the same text and hash.
    expect(record('mcp__db__query', { kind: 'none' }, { sql: 'drop table x', opts: { z: 1, a: [{ y: 2, b: 3 }] } })).toMatchObject({
      target: null,
      input: '{"opts":{"a":[{"b":3,"y":2}],"z":1},"sql":"drop table x"}',
    });
  });

  it("a plugin's verdict is recorded with the plugin the kernel knows decided (decided_by); a layer not its own is replaced by its name, said", async () => {
    const spoof = definePlugin({
      name: 'spoofer',
      apply: (kernel) => void kernel.hooks.checkPermission.tapPromise({ name: 'spoofer', stage: 250 }, async () => ({ decision: 'allow', layer: 'permission-rules:managed', reason: 'org allows' })),
    });
    const { kernel, reporter } = await bootRules(dirs, { steps: [useTools([call('bash', { command: 'echo hi' })]), say('done')], plugins: [spoof, createPermissionAuditPlugin()] });
    await runPrompt(kernel, 'go', 'default');
    await kernel.shutdown();
    const decision = readLines(auditFile(dirs.root)).find((l) => l.type === 'decision')!;
    expect(decision).toMatchObject({ layer: 'spoofer', decided_by: 'spoofer', verdict: 'allow' });
    expect(reporter.warnings).toContain('plugin spoofer answered checkPermission as layer "permission-rules:managed", which is not its own; it is recorded as spoofer');
  });

  it("a plugin's own call is recorded with who made it (made_by); the model's call without", () => {
    const record = (madeBy?: string) =>
      decisionRecord({
        request: { toolName: 'bash', tool: undefined, input: {}, category: 'exec', target: { kind: 'command', command: 'ls' }, mode: 'default', sessionId: 's', projectRoot: dirs.root, ...(madeBy ? { madeBy } : {}) },
        verdict: { decision: 'allow', layer: 'permission-rules' },
        allowed: true,
        toolCallId: 'c',
        sessionId: 's',
        agentId: 'main',
      });
    expect(record('custom-commands')).toMatchObject({ made_by: 'custom-commands' });
    expect(record()).not.toHaveProperty('made_by');
  });

  it('the ranges OutputLimits is held to hold the built-in caps, and their fallbacks are those caps', () => {
    for (const [key, { min, max, fallback }] of Object.entries(OUTPUT_LIMIT_RANGES)) {
      expect([key, fallback]).toEqual([key, LIMITS[key as keyof typeof LIMITS]]);
      expect(min <= fallback && fallback <= max).toBe(true);
    }
    expect(Object.keys(OUTPUT_LIMIT_RANGES).sort()).toEqual(Object.keys(LIMITS).sort());
  });

  it('without an OutputLimits service the built-in caps are the same as output-limits\' own', () => {
    const { auditMaxBytes, auditKeepFiles, auditTargetMaxChars, auditReasonMaxChars } = LIMITS;
    expect(AUDIT_CAPS_WITHOUT_OUTPUT_LIMITS).toEqual({ auditMaxBytes, auditKeepFiles, auditTargetMaxChars, auditReasonMaxChars });
  });

  /** The plugin applied to bare hooks, so a test can fire any hook (the kernel's facade only taps). */
  function appliedToBareHooks() {
    const hooks = createHooks();
    const warnings: string[] = [];
    const plugin = createPermissionAuditPlugin();
    const api = { hooks, container: new Container(), projectRoot: dirs.root, homeDir: dirs.home, session: { projectRoot: dirs.root }, warn: (m: string) => warnings.push(m) };
    void plugin.apply!(api as unknown as KernelApi);
    return { hooks, plugin, warnings };
  }

  it('records the trust decision', async () => {
    const { hooks, plugin, warnings } = appliedToBareHooks();
    await hooks.trustDecided.promise({ projectRoot: dirs.root, trusted: false, source: 'none', skipped: ['plugins', 'providers.evil.base_url'] });
    await plugin.dispose!();
    const trust = readLines(auditFile(dirs.root)).find((l) => l.type === 'trust')!;
    expect(trust).toMatchObject({ project_root: dirs.root, trusted: false, source: 'none', skipped: ['plugins', 'providers.evil.base_url'] });
    expect(await verifyAuditLog(auditFile(dirs.root))).toMatchObject({ ok: true });
    expect(warnings).toEqual([]);
  });

  it('warm() writes the held trust record (not written while the first request is prepared)', async () => {
    const { hooks, plugin } = appliedToBareHooks();
    await hooks.trustDecided.promise({ projectRoot: dirs.root, trusted: true, source: 'flag', skipped: [] });
    const exists = (): boolean => {
      try {
        return readLines(auditFile(dirs.root)).some((l) => l.type === 'trust');
      } catch {
        return false;
      }
    };
    expect(exists()).toBe(false); // delayed: not written while the first request is prepared
    await plugin.warm!({} as KernelApi);
    expect(exists()).toBe(true);
    expect(await verifyAuditLog(auditFile(dirs.root))).toMatchObject({ ok: true });
    await plugin.dispose!();
  });

  it('records a refusal for a tool that is not offered or has no target (plan mode), and a sub-agent by name', async () => {
    const { hooks, plugin } = appliedToBareHooks();
    await hooks.permissionDecided.promise({
      request: { toolName: 'write_file', tool: undefined, input: {}, category: 'write', target: undefined as never, mode: 'plan', sessionId: 's1', projectRoot: dirs.root },
      verdict: { decision: 'deny', layer: 'plan-mode', reason: 'plan mode: write_file is not available' },
      allowed: false,
      toolCallId: 'call-9',
      sessionId: 's1',
      agentId: 'agent-2',
      parentAgentId: 'main',
    });
    await plugin.dispose!();
    const decision = readLines(auditFile(dirs.root)).find((l) => l.type === 'decision')!;
    expect(decision).toMatchObject({ tool: 'write_file', target: null, layer: 'plan-mode', verdict: 'deny', allowed: false, mode: 'plan', agent: 'agent-2', parent_agent: 'main' });
  });

  it('a symbolic link at the log is refused with one warning; nothing is written through it', async () => {
    mkdirSync(path.join(dirs.root, '.mewcode'));
    const canary = path.join(dirs.home, 'canary.txt');
    writeFileSync(canary, 'canary');
    symlinkSync(canary, auditFile(dirs.root));
    const { kernel, reporter } = await bootRules(dirs, {
      steps: [useTools([call('bash', { command: 'a' }), call('bash', { command: 'b' })]), say('done')],
      plugins: [createPermissionAuditPlugin()],
    });
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    expect(readFileSync(canary, 'utf8')).toBe('canary');
    const refusals = reporter.warnings.filter((w) => w.startsWith('permission-audit: refusing to write the audit log through a link'));
    expect(refusals).toHaveLength(1);
  });
});
