/**
 * The OS command sandbox, bound under TOKENS.CommandSandbox by the sandbox-os plugin.
 * bash uses it now; MCP stdio servers and hook commands will use it too.
 *
 * The service does not spawn anything itself: it says how to spawn a command so that it runs
 * inside the sandbox (`file` + `args`, e.g. `bwrap … -- bash -c '…'`), and the caller spawns it
 * as it would have spawned the bare command (own process group, pipes, timeouts).
 */

export type SandboxMechanism = 'bubblewrap' | 'sandbox-exec' | 'none';

export interface SandboxStatus {
  /** Commands given to `wrap` run inside the OS sandbox. */
  active: boolean;
  mechanism: SandboxMechanism;
  /** Why it is not active (missing binary, user namespaces refused, turned off by the user…). */
  reason?: string;
  /** The user turned it off (`sandbox: false` in ~/.mewcode/settings.yaml or config.yaml). */
  disabledByUser?: boolean;
  /** Network access inside the sandbox (`sandbox.network: true` in the user's settings). */
  network?: boolean;
  /** With the network off: the hosts commands may still reach through MewCode's proxy. */
  allowedDomains?: readonly string[];
}

export interface SandboxCommand {
  /** The program and its arguments, e.g. `['/usr/bin/bash', '-c', 'npm test']`. */
  argv: readonly string[];
  /** Working directory (absolute); it must be inside the sandbox's view, which every path is. */
  cwd: string;
  /** The project whose root (and additional directories) the command may write. */
  projectRoot: string;
  /** The home directory the deny-read list is relative to (the one the kernel was given). */
  homeDir: string;
  /**
   * A server that runs for the session (a sandboxed MCP server): the checks after other commands,
   * which wait until no command runs, do not wait for it.
   */
  longLived?: boolean;
  /**
   * Files the command is handed to read although the sandbox hides them: a hook's transcript. Only
   * regular files among the project's own session records (`<project>/.mewcode/sessions/…`) are
   * bound, read-only; anything else is ignored. Optional; bubblewrap only (macOS: not yet).
   */
  readable?: readonly string[];
  /**
   * The session the command runs for. The saved tool outputs of the project
   * (`<project>/.mewcode/tool-output/`) are hidden from commands but for this session's own
   * folder, `<sessionId>/`, bound back read-only when it is a plain folder there (the tool
   * results name files in it). Optional: without it the whole folder is hidden. Bubblewrap only
   * (macOS: the whole folder is hidden).
   */
  sessionId?: string;
}

export interface SandboxLaunch {
  /** What to spawn instead of argv[0]. */
  file: string;
  args: string[];
  /** Variables to add to the command's environment (macOS: TMPDIR, the private temp dir). */
  env?: Record<string, string>;
  /** Call once the command has ended: removes the temporary mount points made for this call. */
  release(): Promise<void>;
  /**
   * Aborted when the sandbox can no longer confine the command while it runs (a file mounted
   * over was replaced on the host: its mount is gone); the reason says why. The caller stops the
   * command as it would for a cancellation, and says so in its result.
   */
  stop?: AbortSignal;
  /**
   * The protected paths inside the writable directories (`.mewcode`, `.claude`, `.mcp.json`,
   * `.git/config`…) that the command finds read-only: a caller names the one a write hit when the
   * command fails with "Read-only file system". Optional.
   */
  readOnlyPaths?: readonly string[];
}

export type SandboxWrapResult =
  /** Spawn `launch` instead of the bare command. */
  | { kind: 'sandboxed'; launch: SandboxLaunch; mechanism: SandboxMechanism }
  /** No OS sandbox (status().active is false): the caller runs the bare command, as before. */
  | { kind: 'unsandboxed'; status: SandboxStatus }
  /** The sandbox is active but this command cannot be confined: the caller must NOT run it. */
  | { kind: 'refused'; message: string };

export interface CommandSandbox {
  /**
   * The sandbox state for `mewcode doctor` and the status line. The probe runs once: at start
   * when the implementation has one (sandbox-os does), else at the first call of this or `probe`
   * (synchronously here, bounded by a short timeout); later calls answer from the cache.
   */
  status(): SandboxStatus;
  /** Same answer as `status()`, probing without blocking the event loop. */
  probe(): Promise<SandboxStatus>;
  /** How to run `command` inside the sandbox. Fails closed: see SandboxWrapResult. */
  wrap(command: SandboxCommand): Promise<SandboxWrapResult>;
  /**
   * Why a file tool must not read this absolute path outside the project even where an allow
   * rule names it — the sandbox keeps it from every command (a credential file, a secret-named
   * file of the home, `sandbox.deny_read`) — or undefined. Answered whether or not the sandbox is
   * active. Optional for other implementations: without it every dotfile of the home counts.
   */
  hiddenReason?(absolutePath: string, projectRoot: string): Promise<string | undefined>;
}

/**
 * The rules layer's read rules as the sandbox sees them (A13: Read-denied paths are
 * unreadable inside it). Built by the sandbox-os plugin from TOKENS.SearchPolicy, the only
 * service that exposes them today, as a predicate.
 */
export interface SandboxReadRules {
  /** True when a `Read` deny (or ask: a command cannot ask per file) rule covers this absolute path. */
  hidden(absolutePath: string): boolean;
  /**
   * Absolute literal prefixes of those rules (the part before the first glob character), when
   * the rules layer can list them. With them the sandbox looks only there, anywhere on disk;
   * without them it offers `hidden` the writable roots' entries and the home's top level.
   */
  prefixes?: readonly string[];
}

/** "on", "off", or "only to a, b" — how a status describes the sandbox's network to the user. */
export function describeSandboxNetwork(status: Pick<SandboxStatus, 'network' | 'allowedDomains'>): string {
  if (status.network) return 'on';
  return status.allowedDomains && status.allowedDomains.length > 0 ? `only to ${status.allowedDomains.join(', ')} (through MewCode's proxy)` : 'off';
}
