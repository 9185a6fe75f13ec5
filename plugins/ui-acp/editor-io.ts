/**
 * The editor's files and terminals for one editor-protocol session: a plugin for that session's
 * kernel (an `extraPlugins` entry of `openRun`) that binds
 * - TOKENS.WorkspaceFiles to `fs/read_text_file` / `fs/write_text_file`, so read_file, write_file
 *   and edit_file see and change the editor's buffers, unsaved edits included;
 * - TOKENS.CommandLauncher to `terminal/create|wait_for_exit|output|kill|release`, so bash runs in
 *   the editor's terminals, where the user watches it;
 * each only when the client advertised it in `initialize` (an unadvertised method is never called).
 *
 * Nothing here decides what may happen: the tools make every check on the real path first (the
 * permission layers, containment, read-before-write, stale files, binary refusal), and bash hands
 * over the command as the OS sandbox wrapped it. Two things only this side can keep:
 * - the environment: an editor's terminal starts from the editor's own environment, which may hold
 *   API keys; the command is started under `env -i` with exactly bash's allowlisted variables (see
 *   CLEAN_ENVIRONMENT);
 * - the terminal's lifetime: it is always released, killed first on timeout or cancellation.
 */
import type { AgentContext, ClientCapabilities, ReadTextFileRequest, TerminalHandle } from '@agentclientprotocol/sdk';
import { ContainerModule } from 'inversify';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { definePlugin, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import type { CommandLauncher, LaunchOutcome, LaunchRequest, WorkspaceFiles } from '../../types/workspace-io.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';

export interface EditorIoOptions {
  /** The connection's client side: what `fs/*` and `terminal/*` are sent through. */
  client: AgentContext;
  /**
   * The editor-protocol session these files and terminals belong to; a function when the id is
   * known only once the session's kernel has booted (it is read at each call).
   */
  sessionId: string | (() => string);
  /** What the client advertised in `initialize`. */
  capabilities: ClientCapabilities | undefined;
  /**
   * The session's cwd as the editor named it. The tools hand over real paths (every check is made
   * on the file on disk); a file under the cwd's real path is named to the editor under the cwd as
   * the editor knows it, which keys its buffers by its own paths (a workspace reached through a
   * link: macOS /tmp, a `~/code` link). Absent: paths as the tools give them.
   */
  cwd?: string;
  /**
   * A terminal was opened for a bash call: the front end can show it in that tool call
   * (`{ type: 'terminal', terminalId }` content). Called before the command is waited for.
   */
  onTerminal?(toolCallId: string, terminalId: string, command?: string): void;
}

export const EDITOR_IO_PLUGIN = 'ui-acp-editor-io';

/**
 * What the editor keeps of a command's output. Bash could use up to its spill cap, but the whole
 * output comes back in one `terminal/output` message, and JSON escaping can make a byte six
 * (`\u0000`): 4 MiB stays under the SDK's 32 MiB message cap on either side.
 */
export const TERMINAL_OUTPUT_MAX_BYTES = 4 * 1024 * 1024;

/**
 * After a kill, how long to wait for the editor to report the exit before reading the output
 * anyway: well inside the margin bash's caller leaves past the timeout (TIMEOUT_MARGIN_MS), so the
 * result is this launcher's, with the output so far.
 */
const KILL_WAIT_MS = 1_000;

/**
 * Runs before the command in the editor's terminal (as `/bin/sh -c CLEAN_ENVIRONMENT mewcode-env
 * <file> <args…>`, plain POSIX sh: the command's own shell may be `/bin/sh` where no bash is on
 * PATH): rebuilds the environment from the names in MEWCODE_ENV_NAMES only and execs
 * the command under `env -i`, so nothing the editor's own environment holds reaches it. The values
 * travel in the terminal's environment, not on a command line; they are on `env`'s command line
 * only between its start and its exec of the command. Standard input is /dev/null, as for a
 * command MewCode runs itself: one that reads input ends instead of waiting on the terminal.
 */
// Each name is a shell identifier (SHELL_NAME), so `eval` only ever sees `set -- "NAME=${NAME}" "$@"`;
// the value is expanded once, inside double quotes, never read as code.
export const CLEAN_ENVIRONMENT = 'for mewcode_env_name in $MEWCODE_ENV_NAMES; do eval "set -- \\"$mewcode_env_name=\\${$mewcode_env_name}\\" \\"\\$@\\""; done; exec /usr/bin/env -i "$@" </dev/null';

const SHELL_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The session kernel's extra plugin; undefined when the client advertised neither files nor terminals. */
export function editorIoPlugin(options: EditorIoOptions): MewcodePlugin | undefined {
  const files = editorFiles(options);
  const launcher = options.capabilities?.terminal === true ? new EditorTerminals(options) : undefined;
  if (!files && !launcher) return undefined;
  return definePlugin({
    name: EDITOR_IO_PLUGIN,
    version: '0.1.0',
    bindings: new ContainerModule(({ bind }) => {
      if (files) bind(TOKENS.WorkspaceFiles).toConstantValue(files);
      if (launcher) bind(TOKENS.CommandLauncher).toConstantValue(launcher);
    }),
  });
}

/**
 * A path as the editor knows it: one under the real path of `cwd` is named under `cwd` itself
 * (cwd + its path relative to the real cwd); any other path as it is. The real cwd is read once,
 * at the first request (the session's cwd was checked to be a directory when it opened).
 */
export function editorPathsUnder(cwd: string): (file: string) => string {
  let realCwd: string | undefined;
  return (file) => {
    if (realCwd === undefined) {
      try {
        realCwd = realpathSync(cwd);
      } catch {
        realCwd = cwd;
      }
    }
    if (realCwd === cwd) return file;
    const relative = path.relative(realCwd, file);
    if (relative === '') return cwd;
    if (relative.startsWith('..') || path.isAbsolute(relative)) return file;
    return path.join(cwd, relative);
  };
}

/** `fs/read_text_file` and `fs/write_text_file`, each only if advertised. */
export function editorFiles(options: Pick<EditorIoOptions, 'client' | 'sessionId' | 'capabilities' | 'cwd'>): WorkspaceFiles | undefined {
  const { client } = options;
  const sessionId = sessionIdOf(options);
  const editorPath = options.cwd === undefined ? (file: string) => file : editorPathsUnder(options.cwd);
  const fs = options.capabilities?.fs;
  const files: WorkspaceFiles = {};
  if (fs?.readTextFile === true) {
    // A read_file window asks for its lines only (`line` is 1-based): a large buffer is not sent whole.
    files.readText = async (realPath, signal, range) => {
      const request: ReadTextFileRequest = { sessionId: sessionId(), path: editorPath(realPath), ...(range ? { line: range.line, limit: range.limit } : {}) };
      const response = await client.request('fs/read_text_file', request, { cancellationSignal: signal, stopWaitingOnCancel: true });
      if (typeof response?.content !== 'string') throw new Error('the editor answered fs/read_text_file without text');
      return response.content;
    };
  }
  if (fs?.writeTextFile === true) {
    // No cancellation: a write the editor may already have applied is waited for, so the tool's
    // result says what happened.
    files.writeText = async (realPath, content) => {
      await client.request('fs/write_text_file', { sessionId: sessionId(), path: editorPath(realPath), content });
    };
  }
  return files.readText || files.writeText ? files : undefined;
}

/** bash's commands in the editor's terminals. */
export class EditorTerminals implements CommandLauncher {
  constructor(private readonly options: Pick<EditorIoOptions, 'client' | 'sessionId' | 'onTerminal'>) {}

  async run(request: LaunchRequest): Promise<LaunchOutcome> {
    const started = monotonicMs();
    const elapsed = (): number => Math.round(monotonicMs() - started);
    if (request.signal.aborted) return { end: 'cancelled', code: null, signal: null, elapsedMs: 0 };
    const names = Object.keys(request.env).filter((name) => SHELL_NAME.test(name));
    let terminal: TerminalHandle;
    try {
      terminal = await this.options.client.createTerminal({
        sessionId: sessionIdOf(this.options)(),
        command: '/bin/sh',
        args: ['-c', CLEAN_ENVIRONMENT, 'mewcode-env', request.file, ...request.args],
        env: [...names.map((name) => ({ name, value: request.env[name] as string })), { name: 'MEWCODE_ENV_NAMES', value: names.join(' ') }],
        cwd: request.cwd,
        outputByteLimit: Math.min(request.maxOutputBytes, TERMINAL_OUTPUT_MAX_BYTES),
      });
    } catch (cause) {
      return { end: 'spawn-error', message: `the editor could not open a terminal for it (${describe(cause)})`, elapsedMs: elapsed() };
    }
    // Checked as fs reads are: an answer without a terminal id names no terminal to show, wait
    // for or release; the command is reported as not started.
    if (typeof terminal.id !== 'string' || terminal.id === '') {
      return { end: 'spawn-error', message: 'the editor answered terminal/create without a terminalId, so the command could not be run in it', elapsedMs: elapsed() };
    }
    try {
      this.options.onTerminal?.(request.toolCallId, terminal.id, request.command);
    } catch {
      // showing the terminal is the front end's business; the command runs regardless
    }
    try {
      return await this.follow(terminal, request, elapsed);
    } finally {
      // Always: release frees the editor's terminal (and kills what still runs in it).
      await terminal.release().catch(() => undefined);
    }
  }

  /**
   * Waits for the exit, the timeout or the cancellation (then kills), and reads the output. Every
   * answer of the editor is checked field by field: what it could not give (a failed or malformed
   * `terminal/output`, `terminal/wait_for_exit`) is said in the result, never replaced by a fact
   * it did not state (no output, an exit status it did not report).
   */
  private async follow(terminal: TerminalHandle, request: LaunchRequest, elapsed: () => number): Promise<LaunchOutcome> {
    const exited: Promise<{ exit: unknown } | { failed: unknown }> = terminal.waitForExit().then(
      (exit: unknown) => ({ exit }),
      (failed: unknown) => ({ failed }),
    );
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stopped = new Promise<'timeout' | 'cancelled'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), request.timeoutMs);
      onAbort = () => resolve('cancelled');
      request.signal.addEventListener('abort', onAbort, { once: true });
      // Cancelled while the terminal was being created: the event has already fired.
      if (request.signal.aborted) onAbort();
    });
    let reason: 'timeout' | 'cancelled' | undefined;
    let exit: ExitRead | undefined;
    let endUnreadable: string | undefined;
    try {
      const first = await Promise.race([exited, stopped]);
      if (typeof first === 'string') {
        reason = first;
        await terminal.kill().catch(() => undefined);
        const after = await Promise.race([exited, delay(KILL_WAIT_MS)]);
        if (after && 'exit' in after) exit = readExit(after.exit, 'terminal/wait_for_exit');
      } else if ('exit' in first) {
        exit = readExit(first.exit, 'terminal/wait_for_exit');
        if (exit.malformed) endUnreadable = `the command ran in the editor's terminal, but its end could not be read: ${exit.malformed}`;
      } else {
        // The command was started: the wait failing says nothing of whether it ran. It is stopped
        // (it may still run) and what it printed is still read.
        endUnreadable = `the command ran in the editor's terminal, but its end could not be read: the editor answered terminal/wait_for_exit with an error (${describe(first.failed)}); its terminal was killed`;
        await terminal.kill().catch(() => undefined);
      }
    } finally {
      clearTimeout(timer);
      if (onAbort) request.signal.removeEventListener('abort', onAbort);
    }
    let truncated = false;
    let outputUnreadable: string | undefined;
    try {
      const output = readOutput(await terminal.currentOutput());
      if (output.output !== '') request.onOutput(Buffer.from(output.output, 'utf8'));
      truncated = output.truncated;
      // The exit as the output reports it, when the wait gave none that can be read.
      if (output.exitStatus && (exit === undefined || exit.unknown)) {
        const fromOutput = readExit(output.exitStatus, 'terminal/output');
        if (!fromOutput.unknown) {
          exit = fromOutput;
          endUnreadable = undefined;
        }
      }
    } catch (cause) {
      outputUnreadable = `the editor did not return the command's output: ${describe(cause)}`;
    }
    return {
      end: reason ?? 'exited',
      code: exit?.code ?? null,
      signal: exit?.signal ?? null,
      elapsedMs: elapsed(),
      ...(truncated ? { outputTruncated: true } : {}),
      ...(reason ? { stoppedBy: "the editor's terminal was killed" } : {}),
      ...(endUnreadable ? { endUnreadable } : {}),
      ...(outputUnreadable ? { outputUnreadable } : {}),
    };
  }
}

/** An exit status as read from the editor: only a whole number is a code, only a signal's name a signal. */
interface ExitRead {
  code: number | null;
  signal: string | null;
  /** Neither a code nor a signal. */
  unknown: boolean;
  /** What was wrong with the answer, when a field was there but not of its type. */
  malformed?: string;
}

const SIGNAL_NAME = /^[A-Za-z][A-Za-z0-9+_-]{0,31}$/;

export function readExit(value: unknown, method: string): ExitRead {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { code: null, signal: null, unknown: true, malformed: `the editor's ${method} answer is not an exit status` };
  }
  const { exitCode, signal } = value as { exitCode?: unknown; signal?: unknown };
  const code = typeof exitCode === 'number' && Number.isSafeInteger(exitCode) ? exitCode : null;
  const name = typeof signal === 'string' && SIGNAL_NAME.test(signal) ? signal : null;
  const wrong = [...(exitCode !== undefined && exitCode !== null && code === null ? ['exitCode'] : []), ...(signal !== undefined && signal !== null && name === null ? ['signal'] : [])];
  return {
    code,
    signal: name,
    unknown: code === null && name === null,
    ...(wrong.length > 0 ? { malformed: `the editor's ${method} answer has an invalid ${wrong.join(' and ')}` } : {}),
  };
}

/** `terminal/output`'s answer, or a throw naming what is missing. */
function readOutput(value: unknown): { output: string; truncated: boolean; exitStatus?: unknown } {
  if (value === null || typeof value !== 'object') throw new Error('its terminal/output answer is not an object');
  const { output, truncated, exitStatus } = value as { output?: unknown; truncated?: unknown; exitStatus?: unknown };
  if (typeof output !== 'string') throw new Error('its terminal/output answer has no text in `output`');
  if (typeof truncated !== 'boolean') throw new Error('its terminal/output answer has no true or false `truncated`');
  return { output, truncated, ...(exitStatus !== undefined && exitStatus !== null ? { exitStatus } : {}) };
}

function sessionIdOf(options: Pick<EditorIoOptions, 'sessionId'>): () => string {
  const { sessionId } = options;
  return typeof sessionId === 'function' ? sessionId : () => sessionId;
}

function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

function describe(cause: unknown): string {
  return (cause as Error | undefined)?.message ?? String(cause);
}
