/**
 * What a plugin adds to the `mewcode` command line: subcommands (`mewcode sessions`, `mewcode
 * audit verify`) and `mewcode doctor` checks. They are declared on the plugin object itself, so
 * the CLI can find and run one without booting the kernel or applying any plugin: dispatching a
 * subcommand reads the declarations of the plugins the configuration keeps, and runs only the one
 * asked for. Keep `run` cheap to declare: import the command's code inside it, so a normal start
 * never loads it.
 */
import type { ResolvedConfig } from './config.js';
import type { CliOptions, KernelApi, MewcodePlugin, UserInterface } from './plugin.js';
import type { WorkspaceTrust } from './trust.js';

/**
 * Where a command prints. Both go through MewCode's terminal-safe filter (control characters and
 * escape sequences from files, servers or settings never reach the terminal).
 */
export interface CliWriters {
  out(text: string): void;
  err(text: string): void;
}

/** A kernel booted to inspect what a run here would use; its provider never sends anything. */
export interface InspectionKernel {
  readonly kernel: KernelApi;
  /** What workspace trust left out of this boot (for the end of a listing), if anything. */
  trustNotice(): string | undefined;
  shutdown(): Promise<void>;
}

export interface SubcommandContext extends CliWriters {
  /** The words after the subcommand's name (`mewcode audit verify --file x` → `['verify', '--file', 'x']`). */
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly homeDir: string;
  /** A frozen copy of the environment: read it, a command does not change what later runs here read. */
  readonly env: NodeJS.ProcessEnv;
  /**
   * Boot this build's kernel as a run here would (workspace trust, configuration, plugins), with
   * the provider replaced by a stand-in that never calls a model, so no API key is needed. The
   * configuration's and the boot's warnings are written to `err`. Throws when the kernel cannot
   * boot (the message names the plugin or setting). Shut it down.
   */
  bootKernel(options: { trustProject: boolean }): Promise<InspectionKernel>;
  /**
   * Boot this build's kernel for a real run, as `mewcode -p` would (workspace trust, configuration,
   * plugins and their start(), the session started, or resumed when the options name one), with
   * `ui` as its front end: for a command that is itself a front end running several sessions (the
   * editor protocol's `mewcode acp`). `options.cwd` is the session's project. Throws an Error whose
   * message names the plugin or setting when it cannot boot. Shut it down when done. `extraPlugins`
   * join this run's plugin set as the build's own (e.g. bindings only this front end can provide),
   * and `ui` answers every ask, the organisation's included: so only the commands of the build's
   * own plugins may open a run; for a plugin named in configuration it rejects, naming the plugin.
   */
  openRun(options: CliOptions, ui: UserInterface, extraPlugins?: readonly MewcodePlugin[]): Promise<RunningKernel>;
}

/** A kernel booted for a real run by `SubcommandContext.openRun`. */
export interface RunningKernel {
  readonly kernel: KernelApi;
  shutdown(): Promise<void>;
}

/**
 * A subcommand's name: lower case letters, digits and dashes, starting with a letter. The pattern
 * is not exported: a RegExp cannot be made read-only (`compile` changes it, frozen or not), and the
 * kernel and the command line check every plugin's names with it.
 */
const SUBCOMMAND_NAME = /^[a-z][a-z0-9-]*$/;

/** Whether `name` is a subcommand's name: lower case letters, digits and dashes, starting with a letter. */
export function isSubcommandName(name: unknown): name is string {
  return typeof name === 'string' && SUBCOMMAND_NAME.test(name);
}

export interface CliSubcommand {
  /** The first word on the command line: `mewcode <name> …`. Lower case letters, digits and `-`. */
  readonly name: string;
  /** The synopsis after `mewcode ` for `--help` (`audit verify [--file F]`). */
  readonly usage: string;
  /** What it does, for `--help`. */
  readonly summary: string;
  /** Runs the command; resolves to the exit code (0 success, 1 failure found, 2 usage or configuration). */
  run(context: SubcommandContext): number | Promise<number>;
}

export type DoctorStatus = 'ok' | 'warn' | 'fail';

/** One line of `mewcode doctor`: `ok|warn|fail  <check>  <message> — <hint>`. */
export interface DoctorFinding {
  status: DoctorStatus;
  /** The check's short name (`ripgrep`, `sandbox`, `audit`). */
  check: string;
  message: string;
  /** What to do about it (warn and fail lines). */
  hint?: string;
}

export interface DoctorContext {
  readonly cwd: string;
  readonly homeDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly config: ResolvedConfig;
  readonly trust: WorkspaceTrust;
  /** This build's kernel booted as a run would, when it could boot (doctor shows why not). */
  readonly kernel: KernelApi | undefined;
}

export interface DoctorCheck {
  /** Unique among the build's checks; also the default `check` column. */
  readonly name: string;
  /**
   * Finds and reports; must change nothing. A throw is shown as a fail line naming the plugin. Runs
   * after the kernel boot, in plugin order.
   */
  run(context: DoctorContext): DoctorFinding[] | Promise<DoctorFinding[]>;
}
