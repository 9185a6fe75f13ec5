/**
 * bash with a CommandLauncher bound (TOKENS.CommandLauncher, an editor's terminals): the launcher
 * gets the command as the OS sandbox wrapped it, the allowlisted environment only, the timeout and
 * the cancellation, and its output goes through the same caps, spill file and result as a local run.
 * The launcher here is a small real one: it runs the argv as a terminal would, keeping at most
 * `maxOutputBytes` (the oldest output dropped, as an editor's terminal does).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CommandSandbox, SandboxCommand, SandboxWrapResult } from '../../../types/sandbox.js';
import type { CommandLauncher, LaunchOutcome, LaunchRequest } from '../../../types/workspace-io.js';
import { project, spillPathOf } from './helpers.js';

class TerminalLike implements CommandLauncher {
  readonly requests: LaunchRequest[] = [];
  constructor(private readonly keepBytes = Number.POSITIVE_INFINITY) {}

  run(request: LaunchRequest): Promise<LaunchOutcome> {
    this.requests.push(request);
    const started = Date.now();
    return new Promise((resolve) => {
      const child = spawn(request.file, [...request.args], { cwd: request.cwd, env: { ...request.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = Buffer.alloc(0);
      let truncated = false;
      const keep = (chunk: Buffer): void => {
        output = Buffer.concat([output, chunk]);
        const limit = Math.min(this.keepBytes, request.maxOutputBytes);
        if (output.length > limit) {
          output = output.subarray(output.length - limit);
          truncated = true;
        }
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      let reason: 'timeout' | 'cancelled' | undefined;
      const stop = (why: 'timeout' | 'cancelled'): void => {
        reason ??= why;
        child.kill('SIGKILL');
      };
      const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
      const onAbort = (): void => stop('cancelled');
      request.signal.addEventListener('abort', onAbort, { once: true });
      child.once('error', (error) => resolve({ end: 'spawn-error', message: error.message, elapsedMs: Date.now() - started }));
      child.once('close', (code, signal) => {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        if (output.length > 0) request.onOutput(output);
        resolve({
          end: reason ?? 'exited',
          code,
          signal,
          elapsedMs: Date.now() - started,
          ...(truncated ? { outputTruncated: true } : {}),
          ...(reason ? { stoppedBy: 'the terminal was killed' } : {}),
        });
      });
    });
  }
}

/** A sandbox that wraps every command in `env SANDBOXED=yes …`, and counts its releases. */
class WrappingSandbox implements CommandSandbox {
  released = 0;
  refuse = false;
  status() {
    return { active: true, mechanism: 'bubblewrap' as const };
  }
  async probe() {
    return this.status();
  }
  async wrap(command: SandboxCommand): Promise<SandboxWrapResult> {
    if (this.refuse) return { kind: 'refused', message: 'this command cannot be confined' };
    return {
      kind: 'sandboxed',
      mechanism: 'bubblewrap',
      launch: { file: '/usr/bin/env', args: ['SANDBOXED=yes', ...command.argv], release: async () => void this.released++ },
    };
  }
}

test('the launcher runs the sandbox-wrapped command with the allowlisted environment; its output and exit are the result', async () => {
  const terminal = new TerminalLike();
  const sandbox = new WrappingSandbox();
  const p = await project({ launcher: () => terminal, sandbox: () => sandbox, sourceEnv: () => ({ PATH: process.env.PATH, HOME: '/home/u', API_KEY: 'secret' }) });
  await mkdir(path.join(p.root, 'src'));
  const context = p.context();
  const result = await p.tool.execute({ command: 'echo "[$SANDBOXED] [${API_KEY-unset}]"; pwd; exit 4', workdir: 'src' }, context);
  expect(result).toEqual({ content: `exit_code: 4\n[yes] [unset]\n${path.join(p.root, 'src')}`, isError: false, exitCode: 4 });
  const [request] = terminal.requests;
  expect(request).toMatchObject({ file: '/usr/bin/env', cwd: path.join(p.root, 'src'), toolCallId: context.toolCallId, timeoutMs: 120_000 });
  expect(request?.args.slice(0, 2)).toEqual(['SANDBOXED=yes', request?.shell]);
  expect(request?.args.slice(2)).toEqual(['-c', 'echo "[$SANDBOXED] [${API_KEY-unset}]"; pwd; exit 4']);
  expect(Object.keys(request?.env ?? {}).sort()).toEqual(['CLAUDE_PROJECT_DIR', 'HOME', 'MEWCODE_PROJECT_DIR', 'PATH']);
  expect(sandbox.released).toBe(1);
});

test('a sandbox that refuses the command: the launcher is never called', async () => {
  const terminal = new TerminalLike();
  const sandbox = new WrappingSandbox();
  sandbox.refuse = true;
  const p = await project({ launcher: () => terminal, sandbox: () => sandbox });
  const result = await p.tool.execute({ command: 'echo hi' }, p.context());
  expect(result).toEqual({ content: 'Error: this command cannot be confined', isError: true });
  expect(terminal.requests).toEqual([]);
});

test('a timeout and a cancellation reach the launcher and read as they do for a local run', async () => {
  const terminal = new TerminalLike();
  const p = await project({ launcher: () => terminal });
  // Long enough for a loaded machine to start the command and print before the time-out.
  const timedOut = await p.tool.execute({ command: 'echo started; sleep 5', timeout: 2_000 }, p.context());
  expect(timedOut.isError).toBe(true);
  expect(timedOut.content).toMatch(/^Error: the command timed out after 2000 ms and was stopped \(the terminal was killed\); exit_code: 137 \(terminated by SIGKILL\)\. Output before the timeout:\nstarted\n/);

  const controller = new AbortController();
  const marker = path.join(p.root, 'begun.mark');
  const running = p.tool.execute({ command: `echo begun; : > '${marker}'; sleep 5` }, p.context({ signal: controller.signal }));
  await untilExists(marker); // cancelled once the command runs, however slowly a loaded machine starts it
  controller.abort();
  const cancelled = await running;
  expect(cancelled.isError).toBe(true);
  expect(cancelled.content).toMatch(/^Error: the command was cancelled after \d+ ms and stopped \(the terminal was killed\).*\nbegun$/s);
});

test('a long output is capped and spilled as usual; a terminal that dropped the beginning says so', async () => {
  const p = await project({ launcher: () => new TerminalLike() });
  const long = await p.tool.execute({ command: 'seq 1 5000' }, p.context());
  expect(long.content).toMatch(/^exit_code: 0\n1\n2\n/);
  expect(long.content).toMatch(/omitted/);
  expect(long.content.endsWith('\n5000')).toBe(true);
  const spilled = await readFile(spillPathOf(long), 'utf8');
  expect(spilled.split('\n').length).toBe(5001);

  const small = await project({ launcher: () => new TerminalLike(100) });
  const cut = await small.tool.execute({ command: 'seq 1 1000' }, small.context());
  expect(cut.isError).toBe(false);
  expect(cut.content).toMatch(/\n1000\n\nNote: the terminal the command ran in kept only the end of its output/);
  expect(cut.content).not.toMatch(/^exit_code: 0\n1\n/);
});

test('a launcher that fails is an error result, not a crash', async () => {
  const broken: CommandLauncher = { run: () => Promise.reject(new Error('the editor went away')) };
  const p = await project({ launcher: () => broken });
  expect(await p.tool.execute({ command: 'echo hi' }, p.context())).toEqual({
    content: 'Error: could not start the command: the editor went away. Check the workdir and that the shell is installed.',
    isError: true,
  });
});

/** Waits until `file` exists (the command reached that point). */
async function untilExists(file: string, withinMs = 10_000): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!existsSync(file)) {
    if (Date.now() > deadline) throw new Error(`${file} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
