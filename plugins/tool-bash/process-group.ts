/**
 * Runs one shell command in its own process group (T5) and reports how it ended.
 *
 * - `detached: true` makes the shell the leader of a new session and process group, so a
 *   timeout or cancellation reaches every process it started: SIGTERM to the group, then
 *   SIGKILL to the group after a grace period if anything is still alive.
 * - The call is over when the shell itself exits (`exit`, not `close`): a background job
 *   (`cmd &`) that inherited the pipes would otherwise keep them open for as long as it runs.
 *   After the exit, reading continues until the pipes close, or until they have been quiet for
 *   `postExitIdleMs` (at most `postExitMaxMs`); then the pipes are destroyed. Background
 *   processes are left running and reported (see BashTool for the policy).
 * - stdout and stderr are forwarded in arrival order into one stream. An incomplete UTF-8
 *   character at the end of a chunk is held back until that stream's next chunk, so the merged
 *   stream never interleaves the halves of a character.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants } from 'node:os';
import type { Readable } from 'node:stream';
import { signalGroup } from '../../sdk/process-reaper.js';
import { incompleteTailStart } from './utf8.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';

export interface RunRequest {
  /** What to spawn: the shell (`bash`, `-c`, command), or the OS sandbox wrapping it. */
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal: AbortSignal;
  /** SIGTERM → SIGKILL delay. */
  killGraceMs: number;
  postExitIdleMs: number;
  postExitMaxMs: number;
  /** Each stream's chunks arrive UTF-8-safe; the stream is named for the hooks' separate copies (stream-copies.ts). */
  onOutput(chunk: Buffer, stream: 'stdout' | 'stderr'): void;
  flow: FlowControl;
}

export type RunOutcome =
  | { end: 'spawn-error'; message: string; elapsedMs: number }
  | {
      end: 'exited' | 'timeout' | 'cancelled';
      code: number | null;
      signal: NodeJS.Signals | null;
      elapsedMs: number;
      pid: number;
      /** The group was sent SIGKILL (something outlived SIGTERM by the grace period). */
      killEscalated: boolean;
      /** Processes of the group still run after the shell exited; nobody waits for them. */
      backgroundAlive: boolean;
      /** Something (a background job) still held the output pipes; reading stopped. */
      stoppedReading: boolean;
      /** How a launcher (an editor's terminal) stopped it on timeout or cancel, for the result. */
      stoppedBy?: string;
      /** A launcher kept only the end of the output. */
      outputTruncated?: boolean;
      /** A launcher could not read how the command ended / its output (LaunchOutcome). */
      endUnreadable?: string;
      outputUnreadable?: string;
    };

/** Pauses and resumes the pipes on behalf of the output collector (backpressure). */
export class FlowControl {
  private streams: Readable[] = [];
  private flowingNow = true;

  get flowing(): boolean {
    return this.flowingNow;
  }

  attach(streams: Readable[]): void {
    this.streams = streams;
    this.apply();
  }

  set(flowing: boolean): void {
    this.flowingNow = flowing;
    this.apply();
  }

  private apply(): void {
    for (const stream of this.streams) {
      if (stream.destroyed) continue;
      if (this.flowingNow) stream.resume();
      else stream.pause();
    }
  }
}

export { signalGroup };

export function groupAlive(pgid: number): boolean {
  return signalGroup(pgid, 0);
}

/** The status a shell would report: the exit code, or 128 + the signal's number; undefined when neither is known. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null): number | undefined {
  if (code !== null) return code;
  const number = signal ? (constants.signals[signal] as number | undefined) : undefined;
  return number === undefined ? undefined : 128 + number;
}

/** `143 (terminated by SIGTERM)` style, shell convention 128 + signal number. */
export function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (code !== null) return String(code);
  if (signal) {
    const number = constants.signals[signal] as number | undefined;
    return number === undefined ? `(terminated by ${signal})` : `${128 + number} (terminated by ${signal})`;
  }
  return 'unknown';
}

export function runInProcessGroup(request: RunRequest): Promise<RunOutcome> {
  const started = monotonicMs();
  const elapsed = (): number => Math.round(monotonicMs() - started);

  return new Promise<RunOutcome>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(request.file, request.args, {
        cwd: request.cwd,
        env: request.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        windowsHide: true,
      });
    } catch (error) {
      resolve({ end: 'spawn-error', message: (error as Error).message, elapsedMs: elapsed() });
      return;
    }

    const pipes = [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
    const held = new Map<Readable, Buffer>();
    const streamOf = (pipe: Readable): 'stdout' | 'stderr' => (pipe === child.stderr ? 'stderr' : 'stdout');
    let openPipes = pipes.length;
    let done = false;
    let reason: 'timeout' | 'cancelled' | undefined;
    let killEscalated = false;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let exit: { code: number | null; signal: NodeJS.Signals | null; at: number } | undefined;
    let lastData = monotonicMs();

    const stop = (why: 'timeout' | 'cancelled'): void => {
      if (reason || done || child.pid === undefined) return;
      reason = why;
      const pid = child.pid;
      if (!signalGroup(pid, 'SIGTERM')) return;
      killTimer = setTimeout(() => {
        killTimer = undefined;
        if (groupAlive(pid)) {
          killEscalated = true;
          signalGroup(pid, 'SIGKILL');
        }
      }, request.killGraceMs);
    };
    const timer = setTimeout(() => stop('timeout'), request.timeoutMs);
    const onAbort = (): void => stop('cancelled');
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) onAbort();

    const forward = (pipe: Readable, chunk: Buffer): void => {
      const previous = held.get(pipe);
      let data = previous ? Buffer.concat([previous, chunk]) : chunk;
      const cut = incompleteTailStart(data);
      if (cut < data.length) {
        held.set(pipe, Buffer.from(data.subarray(cut)));
        data = data.subarray(0, cut);
      } else if (previous) held.delete(pipe);
      if (data.length > 0) request.onOutput(data, streamOf(pipe));
    };
    const flush = (pipe: Readable): void => {
      const rest = held.get(pipe);
      held.delete(pipe);
      if (rest && rest.length > 0) request.onOutput(rest, streamOf(pipe));
    };

    for (const pipe of pipes) {
      pipe.on('data', (chunk: Buffer) => {
        if (done) return;
        lastData = monotonicMs();
        forward(pipe, chunk);
      });
      pipe.on('error', () => undefined); // EPIPE/ECONNRESET after destroy: nothing to report
      pipe.once('close', () => {
        if (done) return;
        flush(pipe);
        openPipes--;
        if (openPipes === 0 && exit) finish(false);
      });
    }
    request.flow.attach(pipes);

    const finish = (stoppedReading: boolean): void => {
      if (done) return;
      if (stoppedReading) for (const pipe of pipes) flush(pipe);
      done = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      request.signal.removeEventListener('abort', onAbort);
      for (const pipe of pipes) pipe.destroy();
      const pid = child.pid as number;
      const backgroundAlive = exit !== undefined && groupAlive(pid);
      // After a kill, the SIGKILL timer stays armed while anything of the group may survive (it
      // checks again when it fires), even though the call returns now.
      if (killTimer && !backgroundAlive) {
        clearTimeout(killTimer);
        killTimer = undefined;
      }
      resolve({
        end: reason ?? 'exited',
        code: exit?.code ?? null,
        signal: exit?.signal ?? null,
        elapsedMs: elapsed(),
        pid,
        killEscalated,
        backgroundAlive,
        stoppedReading,
      });
    };

    const drain = (): void => {
      if (done || !exit) return;
      const now = monotonicMs();
      // Quiet pipes while we are not the ones pausing them: whatever the shell wrote has been read.
      const quiet = request.flow.flowing && now - Math.max(lastData, exit.at) >= request.postExitIdleMs;
      const overdue = now - exit.at >= request.postExitMaxMs;
      if (!quiet && !overdue) {
        drainTimer = setTimeout(drain, Math.max(10, Math.min(50, request.postExitIdleMs)));
        return;
      }
      // On a busy machine this timer can fire before the loop's poll phase has read what the pipes
      // already hold (the command's whole output, written before it exited): look once more after
      // that phase (setImmediate runs after it), and keep reading if anything came.
      const seen = lastData;
      setImmediate(() => {
        if (done) return;
        if (lastData !== seen && !overdue) drain();
        else finish(true);
      });
    };

    child.once('error', (error) => {
      if (done) return;
      if (child.pid === undefined) {
        done = true;
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        for (const pipe of pipes) pipe.destroy();
        resolve({ end: 'spawn-error', message: error.message, elapsedMs: elapsed() });
      }
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal, at: monotonicMs() };
      clearTimeout(timer);
      if (openPipes === 0) finish(false);
      else drain();
    });
  });
}
