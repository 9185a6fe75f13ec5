/**
 * Runs one command hook: `bash -c <command>` (sh where there is no bash on PATH), or with `args`
 * Claude Code's exec form (the program and its arguments, no shell: exec-form.ts), with the payload as one
 * line of JSON on stdin, in its own process group (a timeout kills everything it started), with a
 * minimal environment plus MEWCODE_PROJECT_DIR and CLAUDE_PROJECT_DIR (and a plugin's
 * CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA), inside the OS command
 * sandbox when one is active (a sandbox that refuses the command means it does not run).
 * PATH keeps only its absolute entries: a relative one (`node_modules/.bin`, `.`, an empty one)
 * would find `jq` or `bash` in the project, where a repository can plant its own.
 */
import { spawn } from 'node:child_process';
import { projectCommandProblem, projectExecProblem } from './command-files.js';
import { execArgv } from './exec-form.js';
import { hiddenScript } from './hidden-script.js';
import { registerProcessGroup, releaseProcessGroup, signalGroup } from '../../sdk/process-reaper.js';
import { resolveShell } from '../../sdk/shell-path.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';
import { absolutePathEntries } from '../../types/host-path.js';

/** Passed through when set; nothing else of MewCode's environment reaches a hook (no API keys). */
const BASE_ENV = ['HOME', 'PATH', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'TMPDIR'];
/** Each of stdout and stderr is kept up to this much; the rest is read and dropped. */
export const MAX_CAPTURE_BYTES = 1024 * 1024;
const KILL_GRACE_MS = 1_000;

export interface CommandRun {
  command: string;
  /** Exec form: `command` is the program, these its arguments, no shell. */
  args?: readonly string[];
  payload: unknown;
  projectRoot: string;
  homeDir: string;
  timeoutMs: number;
  env: NodeJS.ProcessEnv;
  sandbox: CommandSandbox | undefined;
  signal?: AbortSignal;
  /** The command is a project's: the files it names in the project are checked first (command-files.ts). */
  projectCommand?: boolean;
  /** Set in the hook's environment too: a Claude Code plugin's CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA. */
  extraEnv?: Readonly<Record<string, string>>;
  /**
   * It must run inside the OS sandbox or not at all (the user's hook in an untrusted project,
   * containment.ts): without an active sandbox, or when it refuses the command, nothing runs
   * and the outcome says `uncontained`.
   */
  requireSandbox?: boolean;
}

export interface CommandOutcome {
  /** null when it did not run to an exit (spawn failure, refused, timeout, cancelled). */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Why it could not run at all. */
  error?: string;
  /** It had to run inside the OS sandbox and could not (`error` says why): nothing ran. */
  uncontained?: 'no sandbox' | 'refused';
  /** It ran inside the OS sandbox and failed because the sandbox hides this file, which it runs (hidden-script.ts). */
  hidden?: string;
  durationMs: number;
}

export function hookEnvironment(source: NodeJS.ProcessEnv, projectRoot: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV) if (source[name] !== undefined) env[name] = source[name]!;
  env.PATH = absolutePathEntries(env.PATH, [projectRoot, process.cwd()]) || '/usr/local/bin:/usr/bin:/bin';
  env.MEWCODE_PROJECT_DIR = projectRoot;
  env.CLAUDE_PROJECT_DIR = projectRoot;
  return env;
}

export async function runCommandHook(run: CommandRun): Promise<CommandOutcome> {
  const started = monotonicMs();
  const elapsed = (): number => Math.round(monotonicMs() - started);
  const notRun = (error: string): CommandOutcome => ({ code: null, stdout: '', stderr: '', timedOut: false, error, durationMs: elapsed() });
  const env = { ...hookEnvironment(run.env, run.projectRoot), ...run.extraEnv };
  let argv: string[];
  if (run.args) {
    const exec = execArgv(run.command, run.args, { CLAUDE_PROJECT_DIR: run.projectRoot, ...run.extraEnv }, env.PATH ?? '', run.projectRoot, run.homeDir);
    if ('error' in exec) return notRun(exec.error);
    argv = exec.argv;
  } else {
    const shell = await resolveShell(env.PATH ?? '');
    // stdin is a socket pair (libuv), which makes bash think a remote shell daemon started it and
    // read ~/.bashrc: --norc keeps the user's rc files out of a hook's output.
    argv = shell.endsWith('/bash') ? [shell, '--norc', '--noprofile', '-c', run.command] : [shell, '-c', run.command];
  }
  if (run.projectCommand) {
    const problem = run.args ? projectExecProblem(argv, run.projectRoot) : projectCommandProblem(run.command, run.projectRoot);
    if (problem !== undefined) return notRun(problem);
  }
  let file = argv[0]!;
  let args = argv.slice(1);
  let release: (() => Promise<void>) | undefined;
  let sandboxStop: AbortSignal | undefined;
  let contained = false;
  const NO_SANDBOX = 'no OS sandbox can run here to contain it';
  const uncontained = (kind: 'no sandbox' | 'refused', why: string): CommandOutcome => ({ code: null, stdout: '', stderr: '', timedOut: false, error: why, uncontained: kind, durationMs: elapsed() });
  if (run.requireSandbox && !run.sandbox) return uncontained('no sandbox', NO_SANDBOX);
  if (run.sandbox) {
    // The transcript MewCode wrote for this hook lies among the session records the sandbox hides: handed to it, read-only.
    const readable = transcriptsOf(run.payload);
    const wrapped = await run.sandbox.wrap({ argv, cwd: run.projectRoot, projectRoot: run.projectRoot, homeDir: run.homeDir, ...(readable.length > 0 ? { readable } : {}) });
    if (wrapped.kind === 'refused') {
      const why = `the command sandbox refused it: ${wrapped.message}`;
      return run.requireSandbox ? uncontained('refused', why) : { code: null, stdout: '', stderr: '', timedOut: false, error: why, durationMs: elapsed() };
    }
    if (wrapped.kind === 'unsandboxed' && run.requireSandbox) return uncontained('no sandbox', NO_SANDBOX);
    if (wrapped.kind === 'sandboxed') {
      file = wrapped.launch.file;
      args = wrapped.launch.args;
      Object.assign(env, wrapped.launch.env ?? {});
      release = () => wrapped.launch.release();
      sandboxStop = wrapped.launch.stop;
      contained = true;
    }
  }
  if (sandboxStop?.aborted) {
    await release?.();
    return { code: null, stdout: '', stderr: '', timedOut: false, error: String((sandboxStop.reason as Error | undefined)?.message ?? sandboxStop.reason), durationMs: elapsed() };
  }
  return new Promise<CommandOutcome>((resolve) => {
    let child;
    try {
      child = spawn(file, args, { cwd: run.projectRoot, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true, windowsHide: true });
    } catch (error) {
      void release?.();
      resolve({ code: null, stdout: '', stderr: '', timedOut: false, error: (error as Error).message, durationMs: elapsed() });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const sizes = { out: 0, err: 0 };
    const collect = (chunks: Buffer[], key: 'out' | 'err') => (chunk: Buffer) => {
      if (sizes[key] >= MAX_CAPTURE_BYTES) return;
      chunks.push(chunk.subarray(0, MAX_CAPTURE_BYTES - sizes[key]));
      sizes[key] += chunk.length;
    };
    child.stdout!.on('data', collect(out, 'out'));
    child.stderr!.on('data', collect(err, 'err'));
    child.stdin!.on('error', () => undefined); // a hook that does not read its stdin
    child.stdin!.end(`${JSON.stringify(run.payload)}\n`);
    let timedOut = false;
    let killTimer: NodeJS.Timeout | undefined;
    let settled = false;
    const stop = (): void => {
      if (child.pid === undefined || killTimer) return;
      const pid = child.pid;
      signalGroup(pid, 'SIGTERM');
      killTimer = setTimeout(() => {
        signalGroup(pid, 'SIGKILL');
        // Something outside the group (a `setsid` grandchild) may still hold the pipes: stop reading.
        setTimeout(() => {
          if (settled) return;
          child.stdout?.destroy();
          child.stderr?.destroy();
          child.emit('close', null, 'SIGKILL');
        }, KILL_GRACE_MS).unref();
      }, KILL_GRACE_MS);
      killTimer.unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    const onAbort = (): void => stop();
    run.signal?.addEventListener('abort', onAbort, { once: true });
    // The sandbox can no longer confine it (SandboxLaunch.stop): stopped as a cancellation is.
    sandboxStop?.addEventListener('abort', onAbort, { once: true });
    if (child.pid !== undefined) registerProcessGroup(child.pid);
    child.once('error', (error) => {
      clearTimeout(timer);
      void release?.();
      resolve({ code: null, stdout: '', stderr: '', timedOut: false, error: error.message, durationMs: elapsed() });
    });
    child.once('close', (code) => {
      settled = true;
      const stderr = Buffer.concat(err).toString('utf8');
      const hidden = contained ? hiddenScript({ command: run.command, ...(run.args ? { argv } : {}), homeDir: run.homeDir, projectRoot: run.projectRoot }, { code: timedOut ? null : code, stderr }) : undefined;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      if (child.pid !== undefined) {
        // Nothing it started outlives it.
        signalGroup(child.pid, 'SIGKILL');
        releaseProcessGroup(child.pid);
      }
      if (killTimer) clearTimeout(killTimer);
      void release?.();
      resolve({
        code: timedOut ? null : code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr,
        timedOut,
        ...(hidden !== undefined ? { hidden } : {}),
        durationMs: elapsed(),
      });
    });
  });
}

/** The payload's `transcript_path` and `agent_transcript_path` (Claude Code's fields), as given. */
function transcriptsOf(payload: unknown): string[] {
  if (typeof payload !== 'object' || payload === null) return [];
  const fields = payload as Record<string, unknown>;
  return [fields.transcript_path, fields.agent_transcript_path].filter((value): value is string => typeof value === 'string' && value !== '');
}
