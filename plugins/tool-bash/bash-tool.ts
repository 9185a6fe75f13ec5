/**
 * The `bash` tool (T5, K1, K5, L7, A4).
 *
 * Policies (documented in the description the model reads, and in the result):
 * - Timeout: `timeout` ms, default 120000, max 600000, honoured as given (no hidden shorter cap).
 *   A larger value is clamped to the maximum and the result says so (the command still runs).
 *   The kernel's outer limit is the same timeout plus TIMEOUT_MARGIN_MS, so this tool's own
 *   handling (SIGTERM, SIGKILL after the grace, partial output) always fires first.
 * - Timeout and cancellation: SIGTERM to the command's process group, SIGKILL to the group
 *   KILL_GRACE_MS later if any member survives. A timeout is an error result with the partial
 *   output; so is a cancellation.
 * - Exit: `exit_code: N` first; a shell killed by a signal shows `128+n (terminated by SIG…)`.
 *   A non-zero exit is a normal result (isError false): the model reads compiler errors and
 *   failing tests as observations.
 * - Background jobs (`cmd &`): the call ends when the shell exits; the tool never waits for them
 *   and stops reading their output. They keep running (the model asked for `&`, e.g. a dev
 *   server), the result names their process group, and they are stopped when the session ends
 *   (SIGTERM to the group, SIGKILL after the grace), so nothing outlives the agent. Through a
 *   CommandLauncher (an editor's terminal) the launcher owns the processes: background jobs end
 *   when its terminal is released, and no process group is reported.
 * - Output: stdout and stderr interleaved in arrival order. When it exceeds the caps
 *   (OutputLimits.bashMaxLines / bashMaxBytes) the result keeps the head (a quarter of each cap)
 *   and the tail (the rest: build and test failures and summaries are at the end), never
 *   splitting a character, with a marker between them naming the spill file that holds the
 *   full output. The spill file is capped at limits.bashSpillMaxBytes (64 MiB); the result says when it
 *   was cut.
 */
import { stat } from 'node:fs/promises';
import { readOnlyNote } from './read-only-note.js';
import type { CommandSandbox, SandboxLaunch } from '../../types/sandbox.js';
import type { CommandLauncher, LaunchOutcome, LaunchRequest } from '../../types/workspace-io.js';
import type { OutputLimits } from '../../types/services.js';
import type { JsonSchema, PermissionTarget, Tool, ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';
import { containPath } from '../../sdk/path-containment.js';
import { commandEnvironment, resolveShell } from './environment.js';
import { absolutePathEntries } from '../../types/host-path.js';
import { OutputCollector, type CollectedOutput } from './output-collector.js';
import { OutputTail } from './output-tail.js';
import { StreamCopies, type StreamName } from './stream-copies.js';
import { FlowControl, describeExit, exitStatus, groupAlive, runInProcessGroup, signalGroup, type RunOutcome } from './process-group.js';
import { DEFAULT_BASH_SETTINGS, type BashSettings } from './settings.js';
import { DEFAULT_TIMEOUT_MS, KILL_GRACE_MS, MAX_TIMEOUT_MS, bashDefinition, bashTimeoutMs, parseTimeout } from './definition.js';

export { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, KILL_GRACE_MS, TIMEOUT_MARGIN_MS } from './definition.js';
/** A runaway command cannot fill the disk: the spill file stops here. */
/** After the shell exits, read until the pipes have been quiet this long (background jobs hold them). */
export const POST_EXIT_IDLE_MS = 100;
export const POST_EXIT_MAX_MS = 1_000;

export interface BashToolOptions {
  /**
   * The OS sandbox (TOKENS.CommandSandbox), looked up at each call. When it is active every
   * command runs inside it, and a command it cannot confine is not run at all (fail closed: the
   * permission layer may have allowed the call because the sandbox holds the boundary).
   */
  sandbox?: () => CommandSandbox | undefined;
  /**
   * Where the (sandbox-wrapped) command runs when not as MewCode's own child process
   * (TOKENS.CommandLauncher: an editor's terminals), looked up at each call; undefined: spawned here.
   */
  launcher?: () => CommandLauncher | undefined;
  /** The validated `bash` section, read at each call (it is validated after the tool is created). */
  settings?: () => BashSettings;
  /** Where allowlisted variables are read from (tests). */
  sourceEnv?: () => NodeJS.ProcessEnv;
  /** What a SessionStart hook's CLAUDE_ENV_FILE exported (TOKENS.CommandEnvironment), read at each call. */
  sessionEnv?: () => Readonly<Record<string, string>>;
  killGraceMs?: number;
  spillMaxBytes?: number;
  postExitIdleMs?: number;
  postExitMaxMs?: number;
}

type ParsedInput =
  | { ok: true; command: string; timeoutMs: number; requestedTimeoutMs: number | undefined; workdir: string | undefined }
  | { ok: false; error: string };

const MIB = 1024 * 1024;

export class BashTool implements Tool {
  readonly name = 'bash';
  readonly readOnly = false;
  readonly category = 'exec' as const;
  readonly description: string;
  readonly inputSchema: JsonSchema;

  private readonly settings: () => BashSettings;
  private readonly sandbox: () => CommandSandbox | undefined;
  private readonly launcher: () => CommandLauncher | undefined;
  private readonly sourceEnv: () => NodeJS.ProcessEnv;
  private readonly sessionEnv: () => Readonly<Record<string, string>>;
  private readonly killGraceMs: number;
  private readonly spillMaxBytes: number;
  private readonly postExitIdleMs: number;
  private readonly postExitMaxMs: number;
  /** Process groups of background jobs left running by finished calls. */
  private readonly background = new Set<number>();

  constructor(
    private readonly limits: OutputLimits,
    options: BashToolOptions = {},
  ) {
    this.settings = options.settings ?? (() => DEFAULT_BASH_SETTINGS);
    this.sandbox = options.sandbox ?? (() => undefined);
    this.launcher = options.launcher ?? (() => undefined);
    this.sourceEnv = options.sourceEnv ?? (() => process.env);
    this.sessionEnv = options.sessionEnv ?? (() => ({}));
    this.killGraceMs = options.killGraceMs ?? KILL_GRACE_MS;
    this.spillMaxBytes = options.spillMaxBytes ?? limits.bashSpillMaxBytes;
    this.postExitIdleMs = options.postExitIdleMs ?? POST_EXIT_IDLE_MS;
    this.postExitMaxMs = options.postExitMaxMs ?? POST_EXIT_MAX_MS;
    const definition = bashDefinition(limits);
    this.description = definition.description;
    this.inputSchema = definition.inputSchema;
  }

  permissionTarget(input: ToolInput): PermissionTarget {
    return { kind: 'command', command: typeof input.command === 'string' ? input.command : '' };
  }

  timeoutMs(input: ToolInput): number {
    return bashTimeoutMs(input);
  }

  /**
   * At session end: SIGTERM to the groups of background jobs still running, SIGKILL to those
   * that outlive the grace period (the timer does not keep the process alive: if it exits first,
   * a job that ignores SIGTERM survives it).
   */
  stopBackground(): void {
    const groups = [...this.background].filter((pgid) => signalGroup(pgid, 'SIGTERM'));
    this.background.clear();
    if (groups.length === 0) return;
    setTimeout(() => {
      for (const pgid of groups) if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    }, this.killGraceMs).unref();
  }

  async execute(input: ToolInput, ctx: ToolContext): Promise<ToolOutput> {
    const parsed = parseInput(input);
    if (!parsed.ok) return { content: parsed.error, isError: true };
    if (ctx.signal.aborted) return { content: 'Cancelled: the command was not started because the run was cancelled.', isError: true };

    let cwd = ctx.projectRoot;
    if (parsed.workdir !== undefined) {
      const checked = await checkWorkdir(parsed.workdir, ctx);
      if (!checked.ok) return { content: checked.error, isError: true };
      cwd = checked.dir;
    }

    const env = commandEnvironment(this.sourceEnv(), this.settings().envAllowlist, ctx.homeDir, ctx.projectRoot, this.sessionEnv());
    // The shell is MewCode's choice, not the command's: never one found in the project (direnv's
    // PATH_add node_modules/.bin and a planted `bash` would run every approved command through it).
    // The command itself still gets the whole PATH.
    const shell = await resolveShell(absolutePathEntries(env.PATH as string, [ctx.projectRoot, process.cwd()]));
    const launched = await launchFor(this.sandbox(), [shell, '-c', parsed.command], cwd, ctx);
    if (!launched.ok) return { content: launched.error, isError: true };
    const { launch } = launched;
    const flow = new FlowControl();
    const { bashMaxBytes: maxBytes, bashMaxLines: maxLines } = this.limits;
    const collector = new OutputCollector({
      maxBytes,
      maxLines,
      headLines: Math.floor(maxLines / 4),
      headBytes: Math.floor(maxBytes / 4),
      spillMaxBytes: this.spillMaxBytes,
      openSpill: () => this.limits.openSpillFile(ctx.toolCallId, 'log', ctx.sessionId),
      setFlowing: (flowing) => flow.set(flowing),
    });
    const tail = new OutputTail(ctx.progress?.bind(ctx));
    const launcher = this.launcher();
    // An editor's terminal gives one merged stream: the hooks then get it as stdout, as before.
    const streams = launcher ? undefined : new StreamCopies(maxBytes);
    const onOutput = (chunk: Buffer, stream?: StreamName): void => {
      collector.write(chunk);
      tail.write(chunk);
      if (stream) streams?.write(stream, chunk);
    };
    const commandEnv = launch.env ? { ...env, ...launch.env } : env;
    const signal = launch.stop ? eitherSignal(ctx.signal, launch.stop) : ctx.signal;
    const outcome = await (
      launcher
        ? runWithLauncher(launcher, {
            file: launch.file,
            args: launch.args,
            cwd,
            env: commandEnv,
            shell,
            timeoutMs: parsed.timeoutMs,
            signal,
            maxOutputBytes: this.spillMaxBytes,
            toolCallId: ctx.toolCallId,
            command: parsed.command,
            onOutput,
          })
        : runInProcessGroup({
            file: launch.file,
            args: launch.args,
            cwd,
            env: commandEnv,
            timeoutMs: parsed.timeoutMs,
            signal,
            killGraceMs: this.killGraceMs,
            postExitIdleMs: this.postExitIdleMs,
            postExitMaxMs: this.postExitMaxMs,
            onOutput,
            flow,
          })
    ).finally(() => {
      tail.close();
      return launch.release(); // awaited: it removes the sandbox's mount points
    });
    const output = await collector.finish();
    if (outcome.end === 'exited' && outcome.backgroundAlive) this.background.add(outcome.pid);
    const stoppedBySandbox = launch.stop?.aborted && !ctx.signal.aborted ? String((launch.stop.reason as Error | undefined)?.message ?? launch.stop.reason) : undefined;
    const readOnly = readOnlyNote(output.capped ? `${output.head}\n${output.tail}` : output.text, launch.readOnlyPaths, cwd, ctx.projectRoot);
    const result = formatResult(parsed, outcome, output, { killGraceMs: this.killGraceMs, spillMaxBytes: this.spillMaxBytes, maxLines, maxBytes, ...(stoppedBySandbox ? { stoppedBySandbox } : {}), ...(readOnly ? { readOnly } : {}) });
    return streams && outcome.end !== 'spawn-error' ? { ...result, streams: streams.finish() } : result;
  }
}

/** The command through TOKENS.CommandLauncher, ended in the terms of a local run (no process group of ours to report); a launcher that throws counts as a failed start. */
async function runWithLauncher(launcher: CommandLauncher, request: LaunchRequest): Promise<RunOutcome> {
  let outcome: LaunchOutcome;
  try {
    outcome = await launcher.run(request);
  } catch (cause) {
    return { end: 'spawn-error', message: (cause as Error | undefined)?.message ?? String(cause), elapsedMs: 0 };
  }
  if (outcome.end === 'spawn-error') return outcome;
  return {
    end: outcome.end,
    code: outcome.code,
    signal: outcome.signal as NodeJS.Signals | null,
    elapsedMs: outcome.elapsedMs,
    pid: 0,
    killEscalated: false,
    backgroundAlive: false,
    stoppedReading: false,
    ...(outcome.outputTruncated ? { outputTruncated: true } : {}),
    ...(outcome.stoppedBy ? { stoppedBy: outcome.stoppedBy } : {}),
    ...(outcome.endUnreadable ? { endUnreadable: outcome.endUnreadable } : {}),
    ...(outcome.outputUnreadable ? { outputUnreadable: outcome.outputUnreadable } : {}),
  };
}

/** A signal aborted when either is, with its reason. */
function eitherSignal(a: AbortSignal, b: AbortSignal): AbortSignal {
  const both = new AbortController();
  const forward = (from: AbortSignal) => (): void => both.abort(from.reason);
  for (const one of [a, b]) {
    if (one.aborted) both.abort(one.reason);
    else one.addEventListener('abort', forward(one), { once: true });
  }
  return both.signal;
}

/** The bare shell, or the sandbox's wrapping of it; an error when the sandbox refuses. */
async function launchFor(
  sandbox: CommandSandbox | undefined,
  argv: [string, ...string[]],
  cwd: string,
  ctx: ToolContext,
): Promise<{ ok: true; launch: SandboxLaunch } | { ok: false; error: string }> {
  const bare: SandboxLaunch = { file: argv[0], args: argv.slice(1), release: async () => undefined };
  if (!sandbox) return { ok: true, launch: bare };
  const wrapped = await sandbox.wrap({ argv, cwd, projectRoot: ctx.projectRoot, homeDir: ctx.homeDir, sessionId: ctx.sessionId });
  if (wrapped.kind === 'sandboxed') return { ok: true, launch: wrapped.launch };
  if (wrapped.kind === 'unsandboxed') return { ok: true, launch: bare };
  return { ok: false, error: `Error: ${wrapped.message}` };
}

function parseInput(input: ToolInput): ParsedInput {
  const invalid = (detail: string): ParsedInput => ({ ok: false, error: `Invalid input for bash: ${detail} Send the call again with corrected arguments.` });
  const { command, timeout, workdir } = input;
  if (command === undefined || command === null) return invalid('"command" is required: the shell command to run, as a string.');
  if (typeof command !== 'string') return invalid(`"command" must be a string (got ${typeof command}).`);
  if (command.trim() === '') return invalid('"command" is empty: give the shell command to run.');
  const parsedTimeout = parseTimeout(timeout);
  if (typeof parsedTimeout === 'object') return invalid(parsedTimeout.error);
  if (workdir !== undefined && workdir !== null && typeof workdir !== 'string') {
    return invalid(`"workdir" must be a string path (got ${typeof workdir}).`);
  }
  const requested = typeof timeout === 'number' ? timeout : typeof timeout === 'string' ? Number(timeout) : undefined;
  return {
    ok: true,
    command,
    timeoutMs: parsedTimeout ?? DEFAULT_TIMEOUT_MS,
    requestedTimeoutMs: requested,
    workdir: typeof workdir === 'string' && workdir.trim() !== '' ? workdir : undefined,
  };
}

async function checkWorkdir(workdir: string, ctx: ToolContext): Promise<{ ok: true; dir: string } | { ok: false; error: string }> {
  let containment;
  try {
    containment = await containPath(ctx.projectRoot, workdir, ctx.homeDir);
  } catch (error) {
    return { ok: false, error: `Cannot use workdir "${workdir}": ${(error as Error).message}. Omit workdir to run in the project root.` };
  }
  if (!containment.inside) {
    return {
      ok: false,
      error: `workdir "${workdir}" resolves to ${containment.resolved}, which is outside the project root ${ctx.projectRoot}. Commands run only inside the project: use a directory inside it (relative paths start at the project root) or omit workdir.`,
    };
  }
  try {
    const info = await stat(containment.resolved);
    if (!info.isDirectory()) {
      return { ok: false, error: `workdir "${workdir}" (${containment.resolved}) is not a directory. Use a directory, or omit workdir to run in the project root.` };
    }
  } catch {
    return { ok: false, error: `workdir "${workdir}" does not exist (resolved to ${containment.resolved}). Create it first (e.g. mkdir -p in a separate call) or omit workdir to run in the project root.` };
  }
  return { ok: true, dir: containment.resolved };
}

function formatBytes(bytes: number): string {
  return bytes >= MIB ? `${(bytes / MIB).toFixed(1)} MiB` : plural(bytes, 'byte');
}

/** `lines 51–99851 (99801 lines, 587859 bytes)`; without line numbers when a cut fell inside a line. */
function omittedPart(output: Extract<CollectedOutput, { capped: true }>): string {
  const size = formatBytes(output.omittedBytes);
  if (output.omittedRange) return `lines ${output.omittedRange.from}–${output.omittedRange.to} (${plural(output.omittedLines, 'line')}, ${size})`;
  if (output.omittedLines === 0) return `${size} of a long line`;
  return `${size} (${plural(output.omittedLines, 'line break')})`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

interface FormatSettings {
  killGraceMs: number;
  spillMaxBytes: number;
  maxLines: number;
  maxBytes: number;
  /** Why the OS sandbox stopped the command (SandboxLaunch.stop), when it did. */
  stoppedBySandbox?: string;
  /** Which protected path a "Read-only file system" came from, and how to go on (read-only-note.ts). */
  readOnly?: string;
}

/** The output block: whole, or head + marker + tail. One trailing newline (the line terminator) is dropped. */
function renderOutput(output: CollectedOutput, settings: FormatSettings): string {
  if (!output.capped) return output.text === '' ? '(no output)' : output.text.replace(/\n$/, '');
  let where: string;
  if (!output.spill) where = `The full output could not be saved (${output.spillError ?? 'unknown error'}).`;
  else if (output.spill.cut) {
    where =
      `Only its first ${formatBytes(output.spill.bytes)} were saved (saved output is capped at ${formatBytes(settings.spillMaxBytes)}), in ${output.spill.path}; ` +
      'read it with read_file (offset/limit) or search it with grep.';
  } else where = `The full output is saved in ${output.spill.path}; read it with read_file (offset/limit) or search it with grep.`;
  const marker =
    `[… ${omittedPart(output)} omitted: the output has ${plural(output.totalLines, 'line')} ` +
    `(${formatBytes(output.totalBytes)}), more than the ${settings.maxLines} lines / ${settings.maxBytes} bytes shown (its beginning and end). ${where} …]`;
  const head = output.head === '' || output.head.endsWith('\n') ? output.head : `${output.head}\n`;
  return `${head}${marker}\n${output.tail.replace(/\n$/, '')}`;
}

function formatResult(
  parsed: Extract<ParsedInput, { ok: true }>,
  outcome: RunOutcome,
  output: CollectedOutput,
  settings: FormatSettings,
): ToolOutput {
  const notes: string[] = [];
  if (parsed.requestedTimeoutMs !== undefined && parsed.requestedTimeoutMs > MAX_TIMEOUT_MS) {
    notes.push(`Note: the requested timeout of ${parsed.requestedTimeoutMs} ms is above the maximum; the command ran with ${MAX_TIMEOUT_MS} ms.`);
  }
  if (outcome.end === 'spawn-error') {
    return { content: `Error: could not start the command: ${outcome.message}. Check the workdir and that the shell is installed.`, isError: true };
  }
  // Output a launcher could not read is said as such, never shown as `(no output)`.
  const body = outcome.outputUnreadable ? `(${outcome.outputUnreadable})` : renderOutput(output, settings);
  const exitText = describeExit(outcome.code, outcome.signal);
  const stopped = outcome.stoppedBy ?? `SIGTERM to its process group${outcome.killEscalated ? `, then SIGKILL after ${settings.killGraceMs} ms` : ''}`;
  if (outcome.outputTruncated) {
    notes.push('Note: the terminal the command ran in kept only the end of its output; the beginning was dropped before MewCode received it.');
  }

  if (outcome.end === 'exited' && outcome.backgroundAlive) {
    notes.push(
      `Note: processes this command started in the background are still running (process group ${outcome.pid}); the call did not wait for them` +
        `${outcome.stoppedReading ? ' and their later output is not captured' : ''}. Redirect a background job's output to a file to keep it (cmd > out.log 2>&1 &). ` +
        `Stop them with: kill -- -${outcome.pid}. They are stopped when the session ends.`,
    );
  }
  if (settings.readOnly) notes.push(settings.readOnly);
  const tail = notes.length > 0 ? `\n\n${notes.join('\n')}` : '';

  if (outcome.end === 'timeout') {
    return {
      content:
        `Error: the command timed out after ${parsed.timeoutMs} ms and was stopped (${stopped}); exit_code: ${exitText}. Output before the timeout:\n${body}${tail}\n\n` +
        `If it needs longer, run it again with a larger timeout (at most ${MAX_TIMEOUT_MS} ms). For a server or watcher, start it in the background with its output redirected to a file (cmd > out.log 2>&1 &).`,
      isError: true,
    };
  }
  if (outcome.end === 'cancelled' && settings.stoppedBySandbox !== undefined) {
    return {
      content: `Error: the OS sandbox stopped the command after ${outcome.elapsedMs} ms (${stopped}): ${settings.stoppedBySandbox} Output before it stopped:\n${body}${tail}`,
      isError: true,
    };
  }
  if (outcome.end === 'cancelled') {
    return {
      content: `Error: the command was cancelled after ${outcome.elapsedMs} ms and stopped (${stopped}); exit_code: ${exitText}. Output before the cancellation:\n${body}${tail}`,
      isError: true,
    };
  }
  // A launcher that could not read how the command ended or what it printed: an error naming what
  // is missing, with what could be read (the model must not take a gap for a fact).
  const unread = [outcome.endUnreadable, outcome.outputUnreadable].filter((said): said is string => said !== undefined);
  if (unread.length > 0) {
    return { content: `Error: ${unread.join('; ')}.\nexit_code: ${exitText}${outcome.outputUnreadable ? '' : `\n${body}`}${tail}`, isError: true };
  }
  // The status beside the text: a non-zero one is a failed call to the hooks (PostToolUseFailure).
  const exitCode = exitStatus(outcome.code, outcome.signal);
  return { content: `exit_code: ${exitText}\n${body}${tail}`, isError: false, ...(exitCode !== undefined ? { exitCode } : {}) };
}
