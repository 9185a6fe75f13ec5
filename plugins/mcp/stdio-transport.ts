/**
 * The stdio transport (M1), our own rather than the SDK's StdioClientTransport, because a
 * server must never outlive MewCode (M9) and never write into the terminal:
 * - the server is the leader of its own process group (`detached`), registered with the process
 *   reaper, so closing, a timeout or MewCode's death kills everything it started (`npx` → node);
 * - stderr goes straight into the server's log file (an fd handed to the child: no copying);
 * - `sandbox: true` spawns what the command sandbox says (bwrap …) instead of the bare command,
 *   and a sandbox that refuses or does not exist fails the connect (closed, never bare).
 * Messages are newline-delimited JSON-RPC, read with the SDK's own ReadBuffer.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SandboxLaunch } from '../../types/sandbox.js';
import { registerProcessGroup, releaseProcessGroup, signalGroup } from '../../sdk/process-reaper.js';
import type { McpSdk } from './sdk-loader.js';

export interface StdioLaunch {
  /** What to spawn: the server's command, or the sandbox's wrapping of it. */
  file: string;
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The server's log file, opened for appending; the child writes its stderr there. */
  stderrFd: number | 'ignore';
  /** Called once the process has ended (a sandbox launch's clean-up). */
  release?: SandboxLaunch['release'];
  /** Aborted when the sandbox can no longer confine the server (SandboxLaunch.stop): it is killed. */
  stop?: SandboxLaunch['stop'];
}

/** How long a closing server gets after its stdin ends, and again after SIGTERM. */
export const CLOSE_GRACE_MS = 1_000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  #child: ChildProcess | undefined;
  #sdk: McpSdk | undefined;
  #buffer: InstanceType<McpSdk['ReadBuffer']> | undefined;
  /** Output that arrived before the SDK was loaded (the server starts while it loads). */
  #early: Buffer[] = [];
  #spawned: Promise<void> | undefined;
  #exited: Promise<void> | undefined;
  #closed = false;

  constructor(private readonly launch: StdioLaunch) {
    launch.stop?.addEventListener('abort', () => this.kill(), { once: true });
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Start the server now, before the SDK is loaded: its own start-up overlaps with ours. */
  spawn(): Promise<void> {
    this.#spawned ??= this.#spawn();
    return this.#spawned;
  }

  /** The SDK's line reader and writer; output that came early is read now. */
  attach(sdk: McpSdk): void {
    this.#sdk = sdk;
    this.#buffer = new sdk.ReadBuffer();
    const early = this.#early.splice(0);
    for (const chunk of early) this.#receive(chunk);
  }

  start(): Promise<void> {
    return this.spawn();
  }

  #receive(chunk: Buffer): void {
    const buffer = this.#buffer;
    if (!buffer) {
      this.#early.push(chunk);
      return;
    }
    try {
      buffer.append(chunk);
      for (;;) {
        const message = this.#readOne(buffer);
        if (message === null) break;
        this.onmessage?.(message);
      }
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  #spawn(): Promise<void> {
    const stop = this.launch.stop;
    if (stop?.aborted) return Promise.reject(new Error(String((stop.reason as Error | undefined)?.message ?? stop.reason)));
    return new Promise((resolve, reject) => {
      let child: ChildProcess;
      try {
        child = spawn(this.launch.file, [...this.launch.args], {
          cwd: this.launch.cwd,
          env: this.launch.env,
          stdio: ['pipe', 'pipe', this.launch.stderrFd],
          detached: true,
          windowsHide: true,
        });
      } catch (error) {
        reject(error as Error);
        return;
      }
      this.#child = child;
      this.#exited = new Promise((done) => {
        child.once('exit', () => {
          if (child.pid !== undefined) {
            // Whatever the leader left behind (a grandchild holding the pipes) goes with it.
            signalGroup(child.pid, 'SIGKILL');
            releaseProcessGroup(child.pid);
          }
          void this.launch.release?.();
          done();
          if (!this.#closed) {
            this.#closed = true;
            this.onclose?.();
          }
        });
      });
      child.once('error', (error) => {
        if (child.pid === undefined) {
          void this.launch.release?.();
          reject(error);
        } else this.onerror?.(error);
      });
      child.once('spawn', () => {
        if (child.pid !== undefined) registerProcessGroup(child.pid);
        // A server never keeps MewCode running: the exit handler and the reaper end it.
        child.unref();
        for (const stream of [child.stdin, child.stdout]) (stream as unknown as { unref?: () => void } | null)?.unref?.();
        resolve();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => this.#receive(chunk));
    });
  }

  /** One message, or null when the buffer holds no whole line; a bad line is reported and skipped. */
  #readOne(buffer: InstanceType<McpSdk['ReadBuffer']>): JSONRPCMessage | null {
    for (;;) {
      try {
        return buffer.readMessage();
      } catch (error) {
        this.onerror?.(new Error(`the server wrote a line that is not a JSON-RPC message: ${(error as Error).message}`));
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.#child?.stdin;
      if (!stdin || stdin.destroyed || this.#closed || !this.#sdk) {
        reject(new Error('Not connected'));
        return;
      }
      if (stdin.write(this.#sdk.serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /** End stdin, then SIGTERM, then SIGKILL to the group, each after CLOSE_GRACE_MS. */
  async close(): Promise<void> {
    const child = this.#child;
    const wasClosed = this.#closed;
    this.#closed = true;
    if (child && this.#exited && child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      const pid = child.pid;
      const exited = this.#exited;
      const within = (ms: number): Promise<boolean> =>
        Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // already closed
      }
      if (!(await within(CLOSE_GRACE_MS))) {
        signalGroup(pid, 'SIGTERM');
        if (!(await within(CLOSE_GRACE_MS))) {
          signalGroup(pid, 'SIGKILL');
          await within(CLOSE_GRACE_MS);
        }
      }
    }
    this.#buffer?.clear();
    if (!wasClosed) this.onclose?.();
  }

  /** Immediate: used when a connect is abandoned (its timeout) or at process exit. */
  kill(): void {
    const pid = this.#child?.pid;
    if (pid !== undefined && this.#child?.exitCode === null) signalGroup(pid, 'SIGKILL');
  }
}
