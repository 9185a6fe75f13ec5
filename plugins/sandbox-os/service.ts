/**
 * The CommandSandbox service: status (probed once, cached), and `wrap`, which turns a command
 * into the bubblewrap (Linux) or sandbox-exec (macOS) invocation that runs it confined.
 *
 * This is its front, on every launch's path: the user's settings, where the sandbox program is,
 * the probe and status, and the sweep of what a dead MewCode left (loaded only when a record is
 * there). What running a command takes (sandbox-commands.ts: the mount plan, the git sweep, the
 * session's directories, the seccomp filter, the proxy) is loaded at the first command or
 * preparation, which the idle warm-up starts after the first request: a launch pays for it only
 * when it runs a command.
 */
import type { CommandSandbox, SandboxCommand, SandboxStatus, SandboxWrapResult } from '../../types/sandbox.js';
import { listEntries, recordsDir } from './record-names.js';
import { locateMechanism, probeAsync, probeSync, type Located, type ProbeOutcome } from './probe.js';
import { DEFAULT_SANDBOX_SETTINGS, readSandboxSettings, type SandboxSettings } from './settings.js';
import { applyManagedSandbox, unconfinedRefusal } from './managed.js';
import { preparationRefusal } from './refusal.js';
import type { OsSandboxOptions } from './sandbox-options.js';
import type { SandboxCommands } from './sandbox-commands.js';

export type { OsSandboxOptions } from './sandbox-options.js';

/**
 * How long start() (on the boot's path) waits for the probe: not at all by default. The probe
 * takes ≈ 10 ms and settles (warning once when no sandbox can run) long before a model answers;
 * the mode layer's probe() and wrap() await it, so nothing decides before it is known.
 */
export const START_WAIT_MS = 0;
/** When start() does not wait, the probe starts this long after boot (probe()/wrap() start it at once). */
export const PROBE_DELAY_MS = 1000;

const NO_SANDBOX_EFFECT =
  'bash keeps asking for approval in default mode, and asks even in bypassPermissions mode unless --dangerously-skip-sandbox is given';

export class OsCommandSandbox implements CommandSandbox {
  private settings: SandboxSettings = DEFAULT_SANDBOX_SETTINGS;
  private settingsLoaded: Promise<void> | undefined;
  private located: Located | undefined;
  private cached: SandboxStatus | undefined;
  private probing: Promise<SandboxStatus> | undefined;
  /** Records of commands a dead MewCode left unswept, swept once per process (sweep-recovery.ts). */
  private recovered: Promise<void> | undefined;
  /** Bumped by dispose(): preparation begun before it makes nothing for the session that ended. */
  private epoch = 0;
  /** Tool calls ended (callEnded): the command part shares a preparation only among calls begun between two ends. */
  private callsEnded = 0;
  /** When the last tool call ended (wall clock): what changed before it is no later command's doing. */
  private lastCallEndedAt: number | undefined;
  /**
   * The command part, loaded and made at the first command or preparation. Truly private: the
   * sealed view the container hands out (types/sealed-service.ts) lists the class's methods and
   * fields, and must not lead to an object whose methods a plugin could replace.
   */
  #commands: Promise<SandboxCommands> | undefined;

  constructor(private readonly options: OsSandboxOptions) {}

  /**
   * At boot: read the user's settings and probe, so that a sandbox that cannot run is said once
   * at start, not at the first bash call. The probe (one process, ≈ 10 ms) runs in the
   * background; start() waits for it at most `startTimeoutMs`. A slower probe still settles (and
   * warns) before any command runs: wrap() awaits the same promise. One probe per process.
   */
  async start(): Promise<void> {
    // Beside the settings: one directory read, almost always of nothing (it sweeps only after a death).
    await Promise.all([this.loadSettings(), this.recoverDeadCommands()]);
    if (!this.settings.enabled) return;
    const located = this.locate();
    if (!located.ok) {
      this.settle({ active: false, mechanism: 'none', reason: located.reason });
      return;
    }
    const wait = this.options.startTimeoutMs ?? START_WAIT_MS;
    if (wait <= 0) {
      // Spawning the probe costs the main thread a few ms: do it once the first model request is
      // on its way (the model takes far longer to answer), unless a caller needs it sooner.
      setTimeout(() => void this.probe(), PROBE_DELAY_MS).unref();
      return;
    }
    const probing = this.probe();
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, wait);
      timer.unref();
    });
    await Promise.race([probing, waited]);
    clearTimeout(timer);
  }

  /** Called while start()'s probe is still running (rare: it takes ≈ 10 ms), this probes a second time, synchronously. */
  status(): SandboxStatus {
    if (this.cached) return this.cached;
    const early = this.statusWithoutProbe();
    if (early) return this.settle(early);
    const located = this.locate() as Extract<Located, { ok: true }>;
    return this.settle(this.fromProbe(probeSync(located.found)));
  }

  probe(): Promise<SandboxStatus> {
    if (this.cached) return Promise.resolve(this.cached);
    this.probing ??= (async () => {
      await this.loadSettings();
      if (this.cached) return this.cached;
      const early = this.statusWithoutProbe();
      if (early) return this.settle(early);
      const located = this.locate() as Extract<Located, { ok: true }>;
      const outcome = await probeAsync(located.found);
      return this.cached ?? this.settle(this.fromProbe(outcome));
    })();
    return this.probing;
  }

  /** What no file tool may read outside the project, whatever a rule allows (read-guard.ts): the commands' hidden paths. */
  async hiddenReason(absolutePath: string, projectRoot: string): Promise<string | undefined> {
    await this.loadSettings();
    const { hiddenReason } = await import('./read-guard.js');
    return hiddenReason(absolutePath, { homeDir: this.options.homeDir, projectRoot, denyRead: this.settings.denyRead, env: this.options.env ?? process.env });
  }

  async wrap(command: SandboxCommand): Promise<SandboxWrapResult> {
    this.#loadBesideProbe();
    const status = await this.probe();
    if (!status.active) {
      const refusal = unconfinedRefusal(this.options.managed, status.reason);
      return refusal === undefined ? { kind: 'unsandboxed', status } : { kind: 'refused', message: refusal };
    }
    let commands: SandboxCommands;
    try {
      commands = await this.#commandPart();
    } catch (error) {
      return { kind: 'refused', message: preparationRefusal(error as Error) };
    }
    return commands.wrap(command);
  }

  /**
   * The commands a MewCode that died (kill -9, OOM, a crash) left unswept, swept now, with the
   * same warnings as after a command (sweep-recovery.ts). Once per process, at start: one read of
   * a directory that is almost always empty or missing, and the sweep's code is loaded only when
   * a record (or a watchdog's notice) is there.
   */
  recoverDeadCommands(): Promise<void> {
    this.recovered ??= (async () => {
      const dir = recordsDir(this.options.homeDir);
      if ((await listEntries(dir)).length === 0) return;
      const { recoverSweeps, recoveryDirs } = await import('./sweep-recovery.js');
      await recoverSweeps(
        dir,
        async (messages) => {
          for (const message of messages) this.options.warn(message);
        },
        { showNotices: true, maxDirs: recoveryDirs(this.options.maxSweepDirs) },
      );
    })().catch((error: Error) => this.options.warn(`sandbox-os: the check of commands an earlier MewCode ended during failed (${error.message})`));
    return this.recovered;
  }

  /**
   * What a first command would otherwise do between the model's answer and its start, done ahead
   * while the model is still answering (the plugin's warm(), after the first request): the probe,
   * then the command part's preparation (sandbox-commands.ts: the project root's git baseline,
   * the session's private directories and seccomp filter), the same cached steps a command takes.
   * A session that never runs a command pays, in time it spends waiting anyway, the command
   * part's load, one idle watchdog process and an empty directory, both gone at its end.
   * Failures are left for the command itself to meet and report.
   */
  async prepare(projectRoot: string): Promise<void> {
    const epoch = this.epoch;
    this.#loadBesideProbe();
    try {
      const status = await this.probe();
      if (!status.active) return;
      await (await this.#commandPart()).prepare(projectRoot, epoch);
    } catch {
      // the command meets it again and reports it
    }
  }

  /**
   * A bash call has arrived (its checks are starting): the probe, then the session's private
   * directories and seccomp filter, which its command will need, made while the checks run.
   * The same cached steps wrap() takes; failures are left for wrap() to meet and report.
   */
  async prepareCommand(): Promise<void> {
    const epoch = this.epoch;
    this.#loadBesideProbe();
    const status = await this.probe();
    if (!status.active || epoch !== this.epoch) return;
    const commands = await this.#commandPart();
    if (epoch !== this.epoch) return;
    await commands.prepareCommand(epoch);
  }

  /** A tool call ended (the plugin's postToolUse tap): what it wrote, the next command's preparation reads afresh. */
  callEnded(): void {
    this.callsEnded++;
    this.lastCallEndedAt = Date.now();
  }

  /** Removes the session's private temporary directory (session end) and stops the proxy: nothing to do when no command part was made. */
  async dispose(): Promise<void> {
    this.epoch++; // preparation still in flight makes nothing for the session that ended
    const commands = this.#commands;
    if (commands) await (await commands.catch(() => undefined))?.dispose();
  }

  /**
   * A command is coming (wrap, a bash call has arrived, the warm-up) and the probe has not settled:
   * the command part's module is read and compiled while the probe's process runs, instead of
   * after it. import() loads a module once: #commandPart() finds it loaded.
   */
  #loadBesideProbe(): void {
    if (this.cached === undefined && this.settings.enabled) import('./sandbox-commands.js').catch(() => undefined);
  }

  /**
   * The command part (sandbox-commands.ts), loaded and made once, only after the probe found a
   * sandbox that runs (its settings and program are then known). A load that failed is tried
   * again by the next call.
   */
  #commandPart(): Promise<SandboxCommands> {
    if (this.#commands) return this.#commands;
    const { found } = this.locate() as Extract<Located, { ok: true }>;
    const loading = import('./sandbox-commands.js').then(
      ({ SandboxCommands }) => new SandboxCommands(this.options, this.settings, found, { epoch: () => this.epoch, recovered: () => this.recoverDeadCommands(), callsEnded: () => this.callsEnded, lastCallEndedAt: () => this.lastCallEndedAt }),
    );
    this.#commands = loading;
    loading.catch(() => {
      if (this.#commands === loading) this.#commands = undefined;
    });
    return loading;
  }

  private async loadSettings(): Promise<void> {
    this.settingsLoaded ??= readSandboxSettings(this.options.homeDir, this.options.warn).then((settings) => {
      this.settings = applyManagedSandbox(settings, this.options.managed, this.options.warn);
    });
    await this.settingsLoaded;
  }

  private locate(): Located {
    // Forced by managed settings: only a root-owned system program, never PATH's (else no sandbox can run: commands are refused).
    const forcedBy = this.options.managed?.sandbox.forceEnabled?.where;
    const { systemLocations } = this.options;
    this.located ??= locateMechanism(this.options.platform, this.options.searchPath, this.options.projectRoot, {
      ...(forcedBy !== undefined ? { forcedBy } : {}),
      ...(systemLocations ? { systemLocations } : {}),
    });
    return this.located;
  }

  /** Known without starting a process: turned off, or no program to run. */
  private statusWithoutProbe(): SandboxStatus | undefined {
    if (!this.settings.enabled) {
      return { active: false, mechanism: 'none', disabledByUser: true, reason: `turned off by the user (sandbox: false at ${this.settings.disabledAt ?? '~/.mewcode/settings.yaml'})` };
    }
    const located = this.locate();
    return located.ok ? undefined : { active: false, mechanism: 'none', reason: located.reason };
  }

  private fromProbe(outcome: ProbeOutcome): SandboxStatus {
    const located = this.locate() as Extract<Located, { ok: true }>;
    if (!outcome.ok) return { active: false, mechanism: 'none', reason: outcome.reason };
    const domains = !this.settings.network && located.found.mechanism === 'bubblewrap' ? this.settings.allowedDomains : [];
    return { active: true, mechanism: located.found.mechanism, network: this.settings.network, ...(domains.length > 0 ? { allowedDomains: domains } : {}) };
  }

  /** Caches the status; an unavailable sandbox (not one the user turned off) is reported once. */
  private settle(status: SandboxStatus): SandboxStatus {
    if (this.cached) return this.cached;
    this.cached = status;
    if (!status.active && !status.disabledByUser) this.options.warn(`sandbox-os: no OS sandbox for commands: ${status.reason}. ${NO_SANDBOX_EFFECT}.`);
    return status;
  }
}
