/** SPEC A11: the audit log of every permission decision and executed call. */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Kernel } from '../../../kernel/kernel.js';
import { definePlugin } from '../../../types/plugin.js';
import type { Tool } from '../../../types/tools.js';
import { AuditLog } from '../../../plugins/permission-audit/audit-log.js';
import { auditFile, createPermissionAuditPlugin, TARGET_MAX_CHARS } from '../../../plugins/permission-audit/index.js';
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
    kernel.hooks.preToolUse.tapPromise('test-hooks', async (context) =>
      context.call.name === 'bash' && String(context.input.command).startsWith('shutdown') ? { block: true, reason: 'no shutdowns', by: 'guard' } : undefined,
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

  it('cuts long targets', async () => {
    const command = `echo ${'x'.repeat(2000)}`;
    const kernel = await session([useTools([call('bash', { command })]), say('done')], []);
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const decision = readLines(auditFile(dirs.root)).find((l) => l.type === 'decision')!;
    expect(decision.target).toBe(`${command.slice(0, TARGET_MAX_CHARS)}…`);
  });

  it('a write failure is one visible warning, never a crash', async () => {
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
  });
});

describe('the log file', () => {
  it('keeps lines whole and in order under a burst of appends', async () => {
    const file = path.join(dirs.root, 'audit.jsonl');
    const log = new AuditLog(file);
    for (let i = 0; i < 300; i++) log.append({ i, pad: 'p'.repeat(i) });
    await log.flush();
    expect(readLines(file).map((l) => l.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
  });

  it('rotates at the size boundary and keeps three old files', async () => {
    const file = path.join(dirs.root, 'audit.jsonl');
    const record = { n: 0, text: 'x'.repeat(80) };
    const lineBytes = Buffer.byteLength(`${JSON.stringify(record)}\n`);
    const maxBytes = lineBytes * 3; // exactly three lines fit
    const log = new AuditLog(file, { maxBytes, keep: 3 });

    for (let n = 1; n <= 3; n++) log.append({ ...record, n });
    await log.flush();
    expect(statSync(file).size).toBe(maxBytes); // at the limit: not rotated yet
    expect(existsSync(`${file}.1`)).toBe(false);

    log.append({ ...record, n: 4 }); // one more byte would exceed the limit → rotate first
    await log.flush();
    expect(readLines(`${file}.1`).map((l) => l.n)).toEqual([1, 2, 3]);
    expect(readLines(file).map((l) => l.n)).toEqual([4]);

    for (let n = 5; n <= 30; n++) log.append({ ...record, n });
    await log.flush();
    const names = readdirSync(dirs.root).filter((f) => f.startsWith('audit.jsonl')).sort();
    expect(names).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2', 'audit.jsonl.3']);
    const kept = [`${file}.3`, `${file}.2`, `${file}.1`, file].flatMap((f) => readLines(f).map((l) => l.n));
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 30 - kept.length + 1 + i));
    for (const name of names) expect(statSync(path.join(dirs.root, name)).size).toBeLessThanOrEqual(maxBytes);
  });

  it('the plugin takes its limits as options', async () => {
    mkdirSync(path.join(dirs.root, '.mewcode'));
    const calls = Array.from({ length: 6 }, (_, i) => call('bash', { command: `echo ${i}` }));
    const { kernel } = await bootRules(dirs, { steps: [useTools(calls), say('done')], plugins: [createPermissionAuditPlugin({ maxBytes: 700, keep: 1 })] });
    await runPrompt(kernel, 'go', 'bypassPermissions');
    await kernel.shutdown();
    const names = readdirSync(path.join(dirs.root, '.mewcode')).filter((f) => f.startsWith('audit.jsonl')).sort();
    expect(names).toEqual(['audit.jsonl', 'audit.jsonl.1']);
    expect(statSync(auditFile(dirs.root)).size).toBeLessThanOrEqual(700);
  });
});
