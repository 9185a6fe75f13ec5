/**
 * The sandbox's command part: everything a command run in the sandbox takes (the mount plan, the
 * session's private directories and its watchdog, the seccomp filter, the domain proxy, the git
 * baseline, the record of a command in flight and the sweep after it). The front (service.ts)
 * loads this module at the first command or preparation, once its probe found a sandbox that
 * runs: a launch that runs no command never reads it.
 */
import { lstat, mkdir, mkdtemp, readdir, readlink, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { lstatNow } from './byte-fs.js';
import type { SandboxCommand, SandboxWrapResult } from '../../types/sandbox.js';
import { bwrapArgs, LAUNCH_SHELLS, sandboxLaunch } from './bwrap-args.js';
import type { FolderEntry, ListEntries } from './rebuilt-folders.js';
import { credentialDirs, credentialPaths, credentialPathsFromEnv, hiddenToolEntries, movedXdgHomes } from './credential-paths.js';
import { ancestorDotenvPaths } from './ancestor-dotenv.js';
import { MAX_HIDDEN_PROJECTS, sessionRecordPaths } from './session-transcripts.js';
import { ownSpillFolders } from './own-spill-folder.js';
import { MAX_SCAN_DIRS, MAX_SCAN_ENTRIES, MAX_SECRET_NAMED, SecretNameScans } from './secret-names.js';
import { listedPaths } from './listed-paths.js';
import { globReadRules, isGlob } from './deny-read-globs.js';
import type { DomainProxy } from './domain-proxy.js';
import { gitNamedPartsCached, repositoryOf } from '../../sdk/git-config-paths.js';
import { projectCodeWarning, sweepGitInfo, sweepHookInputs } from './hook-inputs-sweep.js';
import { gitBaseline, gitHome, reviewBaseline, sweepGitDirs, type GitBaseline, type ReviewBaseline } from './git-sweep.js';
import { baselineFor, ensureRecordsDir, ownStateDirs, recordsDir, writeRecord } from './command-records.js';
import { quarantineWarning, TRUNCATED_WARNING, uncheckedMarkRefusal, uncheckedTreeRefusal, uncheckedWarning } from './sweep-report.js';
import { markAbove } from './unchecked-marks.js';
import { gitFileTarget } from './git-pointers.js';
import { shownPath } from './sweep-paths.js';
import { planMounts, type Inspect, type List, type MountPlan, type PathKind, type PlanResult } from './mount-plan.js';
import { SharedWhileRunning } from './shared-while-running.js';
import { mountedOver, replacedMessage, unwatchableMessage, watchReplaced } from './replaced-files.js';
import { readOwnConfigs, restoreOwnConfigs, type ConfigReading } from './own-git-config.js';
import { CoalescedSweeps } from './coalesced-sweeps.js';
import { SweepGate } from './sweep-gate.js';
import { commandSince } from './file-clock.js';
import { handedFiles } from './handed-files.js';
import { isPathWithin } from '../../types/path-within.js';
import { expectedMounts, hostMounts, mountCheckedArgv } from './mount-check.js';
import { mkdirBeneath, rmdirBeneath } from './beneath.js';
import type { Mechanism } from './probe.js';
import { MAX_RULE_HIDDEN, MAX_RULE_VISITED, ruleHiddenPaths } from './read-rules.js';
import { seatbeltArgs } from './seatbelt.js';
import { seccompFilter, supportedArch } from './seccomp-filter.js';
import type { SandboxSettings } from './settings.js';
import type { OsSandboxOptions } from './sandbox-options.js';
import { preparationRefusal, SESSION_ENDED_REFUSAL } from './refusal.js';
import { startWatchdog } from './watchdog.js';

/** Where the domain proxy's socket appears inside the sandbox (under its own tmpfs /run). */
const PROXY_SOCKET_INSIDE = '/run/mewcode-proxy.sock';

const xdgConfig = (): { xdgConfigHome?: string } => (process.env.XDG_CONFIG_HOME ? { xdgConfigHome: process.env.XDG_CONFIG_HOME } : {});

/** What a command's mounts are made from (prepareMounts), shared by calls that arrive together. */
interface PreparedMounts {
  writableRoots: string[];
  planned: PlanResult;
  review: ReviewBaseline;
  /** The git configurations mounted read-only file by file, as they were (own-git-config.ts). */
  configs: ConfigReading[];
}

/** What the command part reads from the front (service.ts) as it changes. */
export interface SandboxFront {
  /** Bumped by the front's dispose(): preparation begun before it makes nothing for the session that ended. */
  epoch(): number;
  /** The sweep of the records a dead MewCode left (the front's recoverDeadCommands, once per process): done before the records directory is used. */
  recovered(): Promise<void>;
  /** How many tool calls have ended (the plugin's postToolUse tap): what one wrote, a later command's preparation must read. */
  callsEnded(): number;
  /** When the last of them ended (wall clock); undefined: none has. */
  lastCallEndedAt(): number | undefined;
}

export class SandboxCommands {
  private session: Promise<{ base: string; tmp: string; empty: string }> | undefined;
  /** Mount points made for blocked paths, with how many running calls use each. */
  private readonly mountPoints = new Map<string, number>();
  /** The mkdir of a mount point in progress or done, shared by every call that claimed it. */
  private readonly creating = new Map<string, Promise<void>>();
  /** The rmdir of a mount point no call uses any more, in progress: a new claim waits for it. */
  private readonly removing = new Map<string, Promise<void>>();
  /** Removes the mount points recorded in the session directory if this process dies (kill -9). */
  private watchdog: ChildProcess | undefined;
  /** The `.git` entries of the writable roots as the last command left them (git-sweep.ts). */
  private readonly gitBaseline: GitBaseline = new Map();
  private readonly baselinedRoots = new Map<string, Promise<void>>();
  private warnedSweep = false;
  /** Whether the user was told that the installed git hooks run the project's own code (hook-inputs-sweep.ts). */
  private warnedHookCode = false;
  /** Set when a sweep could not finish: why every later command is refused (unless `unchecked_trees`). */
  private uncheckedTree: string | undefined;
  /** Per project root: the refusal an unfinished recovery sweep left for it (markedRefusal). */
  private readonly marks = new Map<string, Promise<string | undefined>>();
  private readonly warnedMarks = new Set<string>();
  /** The records directory made (false: it cannot be; commands run unrecorded, said once). */
  private recordsReady: Promise<boolean> | undefined;
  private warnedRecord = false;
  /** What the sweep could not check, said once each (an unreadable index stays so for many commands). */
  private readonly warnedUnchecked = new Set<string>();
  private warnedRuleWalk = false;
  private warnedGlobWalk = false;
  private warnedNameScan = false;
  private warnedRecords = false;
  /** Shared by calls that arrive together (prepareMounts). */
  private readonly preparations = new SharedWhileRunning<PreparedMounts>();
  /** The sweeps after the commands of one preparation. */
  private readonly sweeps = new CoalescedSweeps<PreparedMounts>();
  /** No sweep while a command runs, no command while a sweep waits or runs (sweep-gate.ts). */
  private readonly gate = new SweepGate();
  /** Sandboxed commands that have ended in this process: a preparation begun before one ended is not shared after it. */
  private commandsEnded = 0;
  /** The home's secret-named files (secret-names.ts), scanned once and then in the background. */
  private readonly secretNames = new SecretNameScans();
  private proxy: { base: string; started: Promise<DomainProxy> } | undefined;
  private warnedDomains = false;
  /** The seccomp program's file in the session directory `base`, written once (undefined: none for this architecture). */
  private filterFile: { base: string; written: Promise<string | undefined> } | undefined;
  /** Allowed sockets already reported as not bound (said once each). */
  private readonly warnedSockets = new Set<string>();

  /** `settings`: the user's, loaded before the probe settled; `found`: the sandbox program the probe ran. */
  constructor(
    private readonly options: OsSandboxOptions,
    private readonly settings: SandboxSettings,
    private readonly found: Mechanism,
    private readonly front: SandboxFront,
  ) {}

  /** How to run `command` confined: the front (service.ts) calls it once the probe found a sandbox that runs. */
  async wrap(command: SandboxCommand): Promise<SandboxWrapResult> {
    // A session that ends meanwhile (dispose) takes the session directory: this call is refused as such.
    const epoch = this.front.epoch();
    if (this.uncheckedTree !== undefined && !this.settings.uncheckedTrees) return { kind: 'refused', message: this.uncheckedTree };
    const marked = await this.markedRefusal(command.projectRoot);
    if (marked !== undefined) return { kind: 'refused', message: marked };
    // The session's directories (made once) while this call's paths are worked out.
    const dirsReady = this.sessionDirs(epoch);
    dirsReady.catch(() => undefined); // awaited below; a refusal before that must not leave it unhandled
    // This command's record (command-records.ts): removed after its sweep, or at once when it does not run.
    let recorded: Promise<(() => Promise<void>) | undefined> | undefined;
    let launched = false;
    // Not while a sweep waits or runs; counted as running from here until it ends (or is not run).
    const ended = command.longLived ? () => undefined : await this.gate.enter();
    try {
      // Calls that arrive together (a turn's bash calls, side by side) share one preparation,
      // begun after the last tool call or command ended: what one of them could have written is
      // already on disk, and reading it again would find the same. A call after any ended reads afresh.
      const key = `${this.front.callsEnded()}.${this.commandsEnded}\0${command.projectRoot}\0${command.homeDir}`;
      const prepared = await this.preparations.join(key, () => this.prepareMounts(command.projectRoot, command.homeDir));
      if (!prepared.planned.ok) return { kind: 'refused', message: prepared.planned.message };
      const { writableRoots, review, planned: { plan } } = prepared;
      // Wall clock, as file ctimes are: what changes from here on is the command's doing. File
      // times come from a coarse clock, up to a tick behind (file-clock.ts).
      // The host's mounts, read once: for the clock of what the command may write, and for the mount check.
      const mounts = hostMounts();
      const since = commandSince(Date.now(), writableRoots, mounts, this.front.lastCallEndedAt());
      recorded = this.recordCommand(command.projectRoot, writableRoots, since);
      const record = recorded;
      const own = ownStateDirs(command.homeDir, command.projectRoot, this.options.homeDir);
      const afterCommand = async (): Promise<void> => {
        // One sweep for the calls prepared together that have ended by the time it starts (coalesced-sweeps.ts).
        ended();
        await this.sweeps.after(prepared, since, (from) => this.gate.exclusive(() => this.afterCommand(writableRoots, from, review, plan.watched ?? [], plan.gitInfo ?? [], own, prepared.configs)));
        await (await record)?.().catch(() => undefined);
      };
      const dirs = await dirsReady;
      if (this.found.mechanism === 'sandbox-exec') {
        if (!this.settings.network && this.settings.allowedDomains.length > 0 && !this.warnedDomains) {
          this.warnedDomains = true;
          this.options.warn('sandbox-os: sandbox.allowed_domains is not supported with sandbox-exec (macOS) yet; the network stays off (sandbox.network: true allows all of it)');
        }
        const unixSockets = { allowed: await realPaths(this.settings.allowUnixSockets), ...(this.settings.allowAllUnixSockets ? { allowAll: true } : {}) };
        const args = seatbeltArgs({ plan, privateTmp: dirs.tmp, network: this.settings.network, argv: command.argv, unixSockets });
        let swept = false;
        const releaseSeatbelt = async (): Promise<void> => {
          if (swept) return;
          swept = true;
          this.commandsEnded++;
          await afterCommand();
        };
        const launch = sandboxLaunch(this.found.binary, args, undefined, launchShell());
        if (epoch !== this.front.epoch()) return { kind: 'refused', message: SESSION_ENDED_REFUSAL };
        await recorded; // on disk before the command starts
        launched = true;
        return { kind: 'sandboxed', mechanism: 'sandbox-exec', launch: { ...launch, env: { TMPDIR: dirs.tmp }, release: releaseSeatbelt } };
      }
      // Network by domain: no network of its own, the proxy's socket bound in, a bridge in front.
      const byDomain = this.byDomain();
      // The bridge to the domain proxy connects to a unix socket, so with it unix sockets stay allowed.
      const filterReady = this.seccompFilterFile(dirs.base, byDomain);
      filterReady.catch(() => undefined); // awaited below, after the mount points
      const made = await this.makeMountPoints(plan.blocked, plan.writable);
      if (!made.ok) return { kind: 'refused', message: made.message };
      let proxy: typeof import('./domain-proxy.js') | undefined;
      let proxySocket: string | undefined;
      let filterFile: string | undefined;
      try {
        proxy = byDomain ? await import('./domain-proxy.js') : undefined;
        proxySocket = byDomain ? (await this.domainProxy(dirs.base)).socketPath : undefined;
        filterFile = await filterReady;
      } catch (error) {
        await this.releaseMountPoints(plan.blocked, plan.writable); // made for this call, which will not run
        throw error;
      }
      const argv = proxy && proxySocket ? [process.execPath, '-e', proxy.bridgeSource(PROXY_SOCKET_INSIDE), '--', ...command.argv] : command.argv;
      // What MewCode keeps for the session (the private /tmp's source, the seccomp filter, the
      // proxy's socket) must be out of the commands' reach, or one command could swap it for the next.
      const exposed = [dirs.base, ...(proxySocket ? [path.dirname(proxySocket)] : [])].find((own) => writableRoots.some((root) => isPathWithin(root, own)));
      if (exposed !== undefined) {
        await this.releaseMountPoints(plan.blocked, plan.writable);
        const root = writableRoots.find((candidate) => isPathWithin(candidate, exposed))!;
        return {
          kind: 'refused',
          message: `The OS sandbox keeps its private files in ${exposed}, inside ${root}, which commands may write (the project, an additional directory or sandbox.allow_write), so the command was not run. Ask the user to set TMPDIR to a directory outside it, or to remove ${root} from sandbox.allow_write.`,
        };
      }
      // Links resolved: the mount lands on the socket itself; a missing one is skipped (bound when it exists).
      const unixSockets = await allowedSockets(this.settings.allowUnixSockets, plan, (target, why) => {
        if (this.warnedSockets.has(target)) return;
        this.warnedSockets.add(target);
        this.options.warn(`sandbox-os: sandbox.allow_unix_sockets: ${target} is not bound into the sandbox: ${why}`);
      });
      // A hook's transcript among the hidden session records, and this session's own saved
      // outputs under the hidden tool-output folder: bound back read-only.
      const handed = [...(await handedFiles(command.readable, writableRoots)), ...(await ownSpillFolders(command.sessionId, writableRoots, plan.hiddenDirs))];
      const bwrap = bwrapArgs({
        plan,
        privateTmp: dirs.tmp,
        emptyDir: dirs.empty,
        network: this.settings.network,
        cwd: command.cwd,
        // Started only once the mounts are found where they were planned (mount-check.ts).
        argv: mountCheckedArgv(
          expectedMounts(plan, mounts, {
            emptyDir: dirs.empty,
            binds: [
              { source: dirs.tmp, target: '/tmp' },
              ...(proxySocket ? [{ source: proxySocket, target: PROXY_SOCKET_INSIDE }] : []),
              ...unixSockets.map((socket) => ({ source: socket, target: socket })),
              ...handed.map((file) => ({ source: file, target: file })),
            ],
          }),
          argv,
          launchShell(),
        ),
        seccomp: filterFile !== undefined,
        ...(unixSockets.length > 0 ? { unixSockets } : {}),
        ...(handed.length > 0 ? { handedFiles: handed } : {}),
        ...(proxySocket ? { proxySocket: { outside: proxySocket, inside: PROXY_SOCKET_INSIDE } } : {}),
      });
      const { file, args } = sandboxLaunch(this.found.binary, bwrap, filterFile, launchShell());
      // A file mounted over that the host replaces loses its mount (replaced-files.ts): the command stops.
      const stop = new AbortController();
      const replaced = watchReplaced(mountedOver(plan), plan.writable, (file, unwatchable) => {
        const message = unwatchable === undefined ? replacedMessage(file) : unwatchableMessage(file, unwatchable);
        this.options.warn(`sandbox-os: ${message}`);
        stop.abort(new Error(message));
      });
      let released = false;
      const release = async (): Promise<void> => {
        if (released) return;
        released = true;
        replaced.close();
        this.commandsEnded++;
        await this.releaseMountPoints(plan.blocked, plan.writable);
        await afterCommand();
      };
      if (epoch !== this.front.epoch()) {
        replaced.close();
        await this.releaseMountPoints(plan.blocked, plan.writable);
        return { kind: 'refused', message: SESSION_ENDED_REFUSAL };
      }
      await recorded; // on disk before the command starts
      if (stop.signal.aborted) {
        // Replaced while this call was being prepared: its mount would be missing from the start.
        await release();
        return { kind: 'refused', message: String((stop.signal.reason as Error).message) };
      }
      launched = true;
      // The protected paths a command in the project may find read-only, so its caller can say which one a write hit.
      const readOnlyPaths = [...plan.readOnly, ...plan.blocked].filter((target) => writableRoots.some((root) => isPathWithin(root, target)));
      return { kind: 'sandboxed', mechanism: 'bubblewrap', launch: { file, args, ...(proxy && proxySocket ? { env: proxy.proxyEnvironment() } : {}), release, stop: stop.signal, readOnlyPaths } };
    } catch (error) {
      return { kind: 'refused', message: epoch !== this.front.epoch() ? SESSION_ENDED_REFUSAL : preparationRefusal(error as Error) };
    } finally {
      if (!launched) ended();
      if (recorded && !launched) void recorded.then((remove) => remove?.()).catch(() => undefined);
    }
  }

  /**
   * What a command's mounts are made from, read before it runs: the writable roots, the paths
   * hidden from reading, the mount plan, the git baseline and the review's state (the indexes'
   * marks before the command: a mark set during it is cleared, git-review.ts).
   */
  private async prepareMounts(projectRoot: string, givenHome: string): Promise<PreparedMounts> {
    // Made before the mounts are planned, so it is among ~/.mewcode's hidden entries.
    const recordsReady = this.ensureRecordsDir();
    const writableRoots = await this.writableRoots(projectRoot);
    await recordsReady;
    const ruleHidden = await this.ruleHidden(writableRoots, givenHome);
    const denyRead = await this.denyReadPaths(givenHome, writableRoots, ruleHidden);
    const homeDir = await realpath(givenHome).catch(() => givenHome);
    const gitNamedPaths = (gitDir: string, workTree: string): string[] => gitNamedPartsCached({ gitDir, workTree, homeDir, ...xdgConfig() }).named;
    const hookInputs = (gitDir: string, workTree: string): string[] => this.hookInputsOf(gitDir, workTree, homeDir);
    const realPath = (link: string): Promise<string | undefined> => realpath(link).catch(() => undefined);
    const enclosingRepository = async (root: string): Promise<{ gitDir: string; workTree: string } | undefined> => repositoryOf(root);
    const planned = await planMounts({ writableRoots, homeDir, denyRead, gitNamedPaths, hookInputs, realPath, gitFileTarget, enclosingRepository, listEntries }, this.inspectProtected, list);
    if (!planned.ok) return { writableRoots, planned, review: new Map(), configs: [] };
    await this.baseline(writableRoots);
    const named = (gitDir: string, workTree: string): string[] => [...gitNamedPaths(gitDir, workTree), ...hookInputs(gitDir, workTree)];
    // The nested repositories the session's first walk found (a `.git` folder below a root).
    const nested = [...this.gitBaseline.keys()].filter((entry) => path.basename(entry) === '.git' && !writableRoots.includes(path.dirname(entry)) && lstatNow(entry)?.isDirectory() === true).map((gitDir) => ({ gitDir, workTree: path.dirname(gitDir) }));
    return { writableRoots, planned, review: await reviewBaseline(writableRoots, named, nested), configs: readOwnConfigs(planned.plan) };
  }

  /**
   * What a first command would otherwise do between the model's answer and its start, done ahead
   * while the model is still answering (the front's prepare(), after the probe): the project
   * root's git baseline (a walk of the tree, 10–100 ms on a large project), and the session's
   * private directories and seccomp filter (prepareCommand). Each is the same cached step a
   * command takes (nothing is weakened: a command still awaits them, and a baseline taken before
   * any command ran is exactly what the first command would have taken). The review's state is
   * read once too, and dropped: each command reads its own, but the repository's refs, listed by
   * a git process, are then listed again only if where git keeps them changed (git-refs.ts), and
   * the code has run once (≈ 30 ms of a first command). `epoch`: the front's when the
   * preparation began. Failures are left for the command itself to meet and report.
   */
  async prepare(projectRoot: string, epoch: number): Promise<void> {
    const root = await realpath(projectRoot);
    // Said at start rather than at the first command (wrap says it then if this did not run).
    const repository = repositoryOf(root);
    if (repository) this.hookInputsOf(repository.gitDir, repository.workTree, await realpath(this.options.homeDir).catch(() => this.options.homeDir));
    await this.baseline([root]);
    await reviewBaseline([root]);
    // The hidden paths once too, dropped: each command reads its own, but the home's secret-name
    // scan begun here is the one the first command uses, as a later command uses the newest
    // finished scan (secret-names.ts), instead of one it would wait for (tens of ms on a real home).
    await this.denyReadPaths(this.options.homeDir, await this.writableRoots(projectRoot), []);
    if (epoch === this.front.epoch()) await this.prepareCommand(epoch);
  }

  /**
   * The session's private directories and seccomp filter, which a command will need, made ahead
   * (a bash call's checks are running, or the idle warm-up). `epoch`: the front's when the
   * preparation began; a session ended since gets nothing.
   */
  async prepareCommand(epoch: number): Promise<void> {
    const dirs = await this.sessionDirs(epoch);
    if (epoch !== this.front.epoch()) return;
    if (this.found.mechanism === 'bubblewrap') await this.seccompFilterFile(dirs.base, this.byDomain());
  }

  /** Removes the session's private temporary directory (session end; the front has ended its epoch) and stops the proxy. */
  async dispose(): Promise<void> {
    const proxy = this.proxy;
    this.proxy = undefined;
    if (proxy) await (await proxy.started.catch(() => undefined))?.close();
    const session = this.session;
    this.session = undefined;
    this.filterFile = undefined; // it lives in the session directory
    // Its cleanup finds nothing left to do (every call released its mount points).
    this.watchdog?.stdin?.end();
    this.watchdog = undefined;
    if (!session) return;
    try {
      await rm((await session).base, { recursive: true, force: true });
    } catch {
      // best effort: it lives in the system temp dir
    }
  }

  /**
   * The refusal a recovery sweep that could not finish left for this project (unchecked-marks.ts),
   * read once per project after this process's own recovery sweep; with `unchecked_trees` it is
   * said once and commands run.
   */
  private markedRefusal(projectRoot: string): Promise<string | undefined> {
    let known = this.marks.get(projectRoot);
    if (known === undefined) {
      known = this.front.recovered()
        .then(() => markAbove(recordsDir(this.options.homeDir), projectRoot))
        .then((found) => (found === undefined ? undefined : uncheckedMarkRefusal(found.file, found.mark?.notWalked)));
      this.marks.set(projectRoot, known);
    }
    return known.then((refusal) => {
      if (refusal === undefined || !this.settings.uncheckedTrees) return refusal;
      if (!this.warnedMarks.has(projectRoot)) this.options.warn(refusal.replace('Sandboxed commands are refused', 'Sandboxed commands would be refused (`unchecked_trees` is set)'));
      this.warnedMarks.add(projectRoot);
      return undefined;
    });
  }

  /** The records directory, made once (after the sweep of what a dead MewCode left there). */
  private ensureRecordsDir(): Promise<boolean> {
    this.recordsReady ??= this.front.recovered()
      .then(() => ensureRecordsDir(recordsDir(this.options.homeDir)))
      .then(
        () => true,
        (error: Error) => {
          this.warnRecordFailed(error);
          return false;
        },
      );
    return this.recordsReady;
  }

  /**
   * Records a command about to start (command-records.ts), so that its git sweep still happens if
   * MewCode dies before the sweep: resolves to the record's removal. Never rejects: a command
   * that cannot be recorded still runs (its sweep after it is unchanged), said once.
   */
  private async recordCommand(projectRoot: string, roots: string[], since: number): Promise<(() => Promise<void>) | undefined> {
    if (!(await this.ensureRecordsDir())) return undefined;
    try {
      return await writeRecord(recordsDir(this.options.homeDir), { version: 1, created: Date.now(), since, projectRoot, roots, baseline: baselineFor(this.gitBaseline, roots) });
    } catch (error) {
      this.warnRecordFailed(error as Error);
      return undefined;
    }
  }

  private warnRecordFailed(error: Error): void {
    if (this.warnedRecord) return;
    this.warnedRecord = true;
    this.options.warn(
      `sandbox-os: commands cannot be recorded in ${recordsDir(this.options.homeDir)} (${error.message}): if MewCode is killed while a command runs, ` +
        'the check for git configuration it planted (which runs after every command) will not happen for it',
    );
  }

  /** Network by domain: the command gets no network of its own, only the domain proxy's socket. */
  private byDomain(): boolean {
    return !this.settings.network && this.settings.allowedDomains.length > 0;
  }

  /**
   * The domain proxy, started with the first command that needs it (one per session directory).
   * Its socket lives in a short directory of its own: a unix socket path is limited to 107 bytes,
   * and a long TMPDIR would otherwise be cut silently. A failed start is retried by the next call.
   */
  private domainProxy(base: string): Promise<DomainProxy> {
    if (this.proxy?.base === base) return this.proxy.started;
    const started = (async () => {
      const { startDomainProxy } = await import('./domain-proxy.js');
      const dir = await mkdtemp(path.join(existsSync('/tmp') ? '/tmp' : os.tmpdir(), 'mewcode-px-'));
      const socket = path.join(dir, 's');
      if (Buffer.byteLength(socket) > 100) throw new Error(`the proxy socket path ${socket} is too long for a unix socket`);
      const proxy = await startDomainProxy(socket, this.settings.allowedDomains, {
        ...(this.options.proxyConnectTo ? { connectTo: this.options.proxyConnectTo } : {}),
        onRefused: (host) => this.options.warn(`sandbox-os: a command tried to reach ${host}, which is not in sandbox.allowed_domains; refused`),
        // MewCode's own proxy variables: an allowed host is reached through the proxy they name.
        env: () => this.options.env ?? process.env,
        onUpstreamError: (message) => this.options.warn(`sandbox-os: ${message.replace(/^MewCode sandbox proxy: /, '')}`),
      });
      return { socketPath: proxy.socketPath, close: async () => { await proxy.close(); await rm(dir, { recursive: true, force: true }); } };
    })();
    const entry = { base, started };
    this.proxy = entry;
    started.catch(() => {
      if (this.proxy === entry) this.proxy = undefined;
    });
    return started;
  }

  /**
   * Everything unreadable for this call, links resolved: the credential list (credential-paths.ts),
   * paths the environment moved credentials to, the hidden entries of ~/.mewcode and the AI tools'
   * directories, the home's files whose names say secret or history (secret-names.ts), MewCode's
   * session records in this and other projects (session-transcripts.ts), dotenv
   * files in the project's parent folders (ancestor-dotenv.ts), the user's deny_read (plain
   * paths, and globs expanded now), the Read rules' paths.
   * A path that is or holds a writable root is left out: hiding it would hide the project.
   */
  private async denyReadPaths(homeDir: string, writableRoots: readonly string[], ruleHidden: readonly string[]): Promise<string[]> {
    const patterns = this.settings.denyRead.filter(isGlob);
    const globRules = globReadRules(patterns);
    const expanded = globRules ? await ruleHiddenPaths(globRules, writableRoots, homeDir) : { paths: [], truncated: false };
    if (expanded.truncated && !this.warnedGlobWalk) {
      this.warnedGlobWalk = true;
      this.options.warn(
        `sandbox-os: the sandbox.deny_read patterns matched more than MewCode looks at per command (${MAX_RULE_VISITED} entries, ${MAX_RULE_HIDDEN} hidden paths); ` +
          'files beyond may be readable by commands. Name their directory instead (e.g. ~/work/secrets rather than ~/work/**/secret*)',
      );
    }
    const globbed = expanded.paths;
    const env = this.options.env ?? process.env;
    const realHome = await realpath(homeDir).catch(() => homeDir);
    const [named, parents, records] = await Promise.all([this.secretNamed(realHome, writableRoots, env), ancestorDotenvPaths(writableRoots, realHome), sessionRecordPaths(realHome, writableRoots)]);
    if (records.truncated && !this.warnedRecords) {
      this.warnedRecords = true;
      this.options.warn(`sandbox-os: MewCode has run in more than ${MAX_HIDDEN_PROJECTS} projects (~/.mewcode/sessions.jsonl); the session records of the older ones are readable by commands`);
    }
    // The built-in list (≈ 335 names in a few dozen directories of the home, most of them missing)
    // is narrowed by listing those directories; every other path is few and resolved as given
    // (a name a lookup finds but a listing may not show: an automount, another Unicode spelling).
    const candidates = [
      ...(await listedPaths(credentialPaths(homeDir))),
      ...credentialPathsFromEnv(homeDir, env),
      ...(await hiddenToolEntries(homeDir)),
      ...named,
      ...parents,
      ...records.paths,
      ...this.settings.denyRead.filter((entry) => !isGlob(entry)),
      ...globbed,
      ...ruleHidden,
    ];
    const real = await realPaths(candidates);
    return real.filter((target) => target !== '/' && !writableRoots.some((root) => isPathWithin(target, root)));
  }

  /** The home's secret-named paths (secret-names.ts); the project and the lists' own directories are not entered. */
  private async secretNamed(homeDir: string, writableRoots: readonly string[], env: NodeJS.ProcessEnv): Promise<string[]> {
    const extraRoots = movedXdgHomes(homeDir, env).map(([, base]) => base);
    const { paths, truncated } = await this.secretNames.get(homeDir, { extraRoots, skip: [...credentialDirs(homeDir), ...writableRoots] });
    if (truncated && !this.warnedNameScan) {
      this.warnedNameScan = true;
      this.options.warn(
        `sandbox-os: the home directory holds more than MewCode looks at for secret-named files (${MAX_SCAN_DIRS} directories, ${MAX_SCAN_ENTRIES} entries, ${MAX_SECRET_NAMED} hidden paths); ` +
          'files beyond may be readable by commands. Name their directory in sandbox.deny_read in ~/.mewcode/settings.yaml',
      );
    }
    return paths;
  }

  /**
   * The seccomp program (seccomp-filter.ts) for this session, written once next to the private /tmp.
   * On an architecture the filter does not know, none: said once, and commands still run (with
   * the keyring and unix sockets not isolated) rather than not at all.
   */
  private seccompFilterFile(base: string, bridge: boolean): Promise<string | undefined> {
    if (this.filterFile?.base === base) return this.filterFile.written;
    const writing = (async () => {
      const arch = this.options.arch ?? process.arch;
      if (!supportedArch(arch)) {
        this.options.warn(`sandbox-os: no seccomp filter for the ${arch} architecture: commands can use the kernel keyring and connect to unix sockets they can reach`);
        return undefined;
      }
      const denyUnixSockets = !bridge && this.settings.allowUnixSockets.length === 0 && this.settings.allowAllUnixSockets !== true;
      const file = path.join(base, denyUnixSockets ? 'seccomp.bpf' : 'seccomp-keyring.bpf');
      await writeFile(file, seccompFilter({ denyUnixSockets, arch }), { mode: 0o400 });
      return file;
    })();
    const entry = { base, written: writing };
    this.filterFile = entry;
    writing.catch(() => {
      if (this.filterFile === entry) this.filterFile = undefined; // written again by the next command
    });
    return writing;
  }

  /** Paths the rules layer's Read deny/ask rules cover (read-rules.ts); nothing when there are no such rules. */
  private async ruleHidden(writableRoots: readonly string[], homeDir: string): Promise<string[]> {
    const rules = this.options.readRules?.();
    if (!rules) return [];
    const { paths, truncated } = await ruleHiddenPaths(rules, writableRoots, homeDir);
    if (truncated && !this.warnedRuleWalk) {
      this.warnedRuleWalk = true;
      this.options.warn(
        `sandbox-os: Read deny rules were applied inside the OS sandbox to the first ${MAX_RULE_VISITED} entries (at most ${MAX_RULE_HIDDEN} hidden paths) only; ` +
          'files beyond may be readable by commands. Name the directory to hide (e.g. Read(./secrets/**)) or add it to sandbox.deny_read in ~/.mewcode/settings.yaml',
      );
    }
    return paths;
  }

  /** Made once per session; one that failed is made again by the next command (not a refusal for good). */
  private sessionDirs(epoch: number): Promise<{ base: string; tmp: string; empty: string }> {
    // Asked for by a session that has ended: none is made for the next one, which may never come.
    if (epoch !== this.front.epoch()) return Promise.reject(new Error('the session ended before its sandbox directory was made'));
    if (this.session) return this.session;
    const making = (async () => {
      const base = await mkdtemp(path.join(this.options.tmpRoot ?? os.tmpdir(), 'mewcode-sandbox-'));
      try {
        const tmp = path.join(base, 'tmp');
        const empty = path.join(base, 'empty');
        await mkdir(tmp, { mode: 0o700 });
        await mkdir(empty, { mode: 0o500 });
        if (epoch !== this.front.epoch()) throw new Error('the session ended while its sandbox directory was being made');
        this.watchdog = startWatchdog(base, recordsDir(this.options.homeDir));
        return { base, tmp, empty };
      } catch (error) {
        // Nothing is left behind: no watchdog watches this directory yet.
        await rm(base, { recursive: true, force: true }).catch(() => undefined);
        throw error;
      }
    })();
    this.session = making;
    making.catch(() => {
      if (this.session === making) this.session = undefined;
    });
    return making;
  }

  /** The claimed mount points, for the watchdog (deepest first, as releaseMountPoints removes them). */
  private recordMountPoints(): void {
    const session = this.session;
    if (!session) return;
    // Claimed ones and ones whose removal is still pending: both may be on disk.
    const listed = [...new Set([...this.mountPoints.keys(), ...this.removing.keys()])];
    session.then(
      ({ base }) => {
        try {
          writeFileSync(path.join(base, 'mount-points'), listed.sort((a, b) => b.length - a.length).map((p) => `${p}\n`).join(''));
        } catch {
          // the session directory is gone (dispose)
        }
      },
      () => undefined, // no session directory: no watchdog to tell
    );
  }

  /**
   * Protected paths as the plan sees them: a mount point this process made (or is removing), or
   * one another MewCode left or holds (an empty directory of mode 0500), is "missing": bound over
   * from the empty directory rather than over itself, so it may vanish before bubblewrap mounts it
   * (bubblewrap then makes it again) without failing the command.
   */
  private readonly inspectProtected: Inspect = async (target, follow) => {
    // Ours before or after the look: a parallel call may release and remove it while we look,
    // and a directory seen then gone must not be planned as one to bind over itself.
    const ours = (): boolean => this.mountPoints.has(target) || this.removing.has(target);
    const oursBefore = ours();
    const kind = await inspect(target, follow);
    if (follow || kind !== 'dir') return kind;
    if (oursBefore || ours()) return 'missing';
    const left = await mountPointLeft(target);
    return left === 'no' ? kind : 'missing';
  };

  /**
   * The first command in a writable root: its `.git` entries before anything ran (git-sweep.ts).
   * One walk per root, shared: a command waits for a walk prepare() started earlier.
   */
  private async baseline(roots: readonly string[]): Promise<void> {
    await Promise.all(
      roots.map((root) => {
        let walk = this.baselinedRoots.get(root);
        if (!walk) {
          walk = realpath(this.options.homeDir).catch(() => this.options.homeDir).then((home) => gitBaseline([root], gitHome(home))).then((found) => {
            for (const [file, id] of found) if (!this.gitBaseline.has(file)) this.gitBaseline.set(file, id);
          });
          this.baselinedRoots.set(root, walk);
          // A failed walk is walked again by the next command (never a command without a baseline).
          walk.catch(() => this.baselinedRoots.delete(root));
        }
        return walk;
      }),
    );
  }

  /**
   * What the hooks installed for `gitDir` read or run (sdk/git-hook-inputs.ts), and the programs
   * its configuration names by a path (sdk/git-config-paths.ts); the first time one
   * runs the project's own code (npx, node_modules), the user is told, once per session: that
   * code stays writable (docs/safety.md).
   */
  private hookInputsOf(gitDir: string, workTree: string, homeDir: string): string[] {
    const { hookInputs, programs, programsRunningProjectCode } = gitNamedPartsCached({ gitDir, workTree, homeDir, ...xdgConfig() });
    const projectCode = [...hookInputs.projectCode, ...programsRunningProjectCode];
    if (projectCode.length > 0 && !this.warnedHookCode) {
      this.warnedHookCode = true;
      this.options.warn(projectCodeWarning(projectCode));
    }
    // The programs the configuration names by a path (a clean filter, a pager) are protected as a hook's are.
    return [...hookInputs.paths, ...programs];
  }

  /** After a command: what installed hooks read made or changed and new entries of a git directory's info/ (hook-inputs-sweep.ts), git directories it planted set aside (git-sweep.ts; `own`: MewCode's own state directories, never set aside). */
  private async afterCommand(roots: readonly string[], since: number, review: ReviewBaseline, watched: NonNullable<MountPlan['watched']>, gitInfo: NonNullable<MountPlan['gitInfo']>, own: readonly string[], configs: readonly ConfigReading[]): Promise<void> {
    try {
      for (const hooks of [restoreOwnConfigs(configs, roots), await sweepHookInputs(watched, roots, since), await sweepGitInfo(gitInfo, roots)]) {
        for (const item of hooks.quarantined) this.options.warn(quarantineWarning(item));
        for (const what of hooks.unchecked) this.options.warn(uncheckedWarning(what));
      }
      const home = gitHome(await realpath(this.options.homeDir).catch(() => this.options.homeDir));
      const { quarantined, unchecked, notices, truncated, notWalked } = await sweepGitDirs(roots, since, this.gitBaseline, this.options.maxSweepDirs, review, own, home);
      for (const item of quarantined) this.options.warn(quarantineWarning(item));
      for (const notice of notices) this.options.warn(uncheckedWarning(notice));
      for (const what of unchecked) {
        if (this.warnedUnchecked.has(what)) continue;
        this.warnedUnchecked.add(what);
        this.options.warn(uncheckedWarning(what));
      }
      if (truncated && this.settings.uncheckedTrees) {
        if (!this.warnedSweep) this.options.warn(TRUNCATED_WARNING);
        this.warnedSweep = true;
      } else if (truncated) {
        this.uncheckedTree = uncheckedTreeRefusal(notWalked.map(shownPath), this.options.maxSweepDirs);
        this.options.warn(this.uncheckedTree);
      }
    } catch (error) {
      this.options.warn(`sandbox-os: the check after a sandboxed command failed (${(error as Error).message})`);
    }
    // The home's next secret-name scan, for the commands after this one (secret-names.ts).
    this.secretNames.refresh();
  }

  private async writableRoots(projectRoot: string): Promise<string[]> {
    const candidates = [projectRoot, ...(this.options.additionalDirectories?.() ?? []), ...this.settings.allowWrite];
    const roots: string[] = [];
    for (const candidate of candidates) {
      try {
        const real = await realpath(candidate);
        if ((await stat(real)).isDirectory()) roots.push(real);
      } catch {
        // a directory that does not exist cannot be bound (and needs no write access)
      }
    }
    return roots;
  }

  /** `roots`: the writable roots; below them no link is followed on the way to a mount point (beneath.ts). */
  private async makeMountPoints(paths: readonly string[], roots: readonly string[]): Promise<{ ok: true } | { ok: false; message: string }> {
    const unsafe = paths.find((target) => target.includes('\n'));
    if (unsafe !== undefined) {
      return { ok: false, message: `The OS sandbox cannot protect ${JSON.stringify(unsafe)} (a line break in the path), so the command was not run. Ask the user to rename the directory.` };
    }
    // Claimed before awaiting, so a concurrent call (hooks run side by side) shares a mount point
    // instead of racing to create it; it waits for the same mkdir, and a mkdir waits for the rmdir
    // of the previous claim still in progress.
    const fresh: string[] = [];
    for (const target of paths) {
      const users = this.mountPoints.get(target) ?? 0;
      this.mountPoints.set(target, users + 1);
      if (users === 0) fresh.push(target);
    }
    // Listed for the watchdog before any is made (the list's write is queued ahead of every mkdir).
    if (fresh.length > 0) this.recordMountPoints();
    // Side by side; one inside another is made after it (shallowest first).
    for (const target of [...fresh].sort((a, b) => a.length - b.length)) {
      const removal = this.removing.get(target);
      const parent = fresh.includes(path.dirname(target)) ? this.creating.get(path.dirname(target)) : undefined;
      this.creating.set(
        target,
        (async () => {
          await removal;
          await parent?.catch(() => undefined);
          // One another MewCode made (or left) is the same empty read-only directory, shared; one
          // it removed while we looked is made again (a few times: it may be racing us).
          for (let attempt = 1; ; attempt++) {
            try {
              return await mkdirBeneath(target, roots, 0o500);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
              const left = await mountPointLeft(target);
              if (left === 'yes') return;
              if (left === 'no' || attempt === 3) throw error;
            }
          }
        })(),
      );
    }
    const outcomes = await Promise.allSettled(paths.map((target) => this.creating.get(target)));
    const failedAt = outcomes.findIndex((outcome) => outcome.status === 'rejected');
    if (failedAt === -1) return { ok: true };
    // A mount point that could not be made is not ours to remove (it may be something that
    // appeared meanwhile): only its claim goes. The ones made are released as after a command.
    let unlisted = false;
    paths.forEach((target, at) => {
      if (outcomes[at]?.status !== 'rejected') return;
      const left = (this.mountPoints.get(target) ?? 1) - 1;
      if (left > 0) this.mountPoints.set(target, left);
      else {
        this.mountPoints.delete(target);
        this.creating.delete(target);
        unlisted = true;
      }
    });
    if (unlisted) this.recordMountPoints();
    await this.releaseMountPoints(paths.filter((_, at) => outcomes[at]?.status === 'fulfilled'), roots);
    const error = (outcomes[failedAt] as PromiseRejectedResult).reason as NodeJS.ErrnoException;
    return {
      ok: false,
      message: `The OS sandbox could not reserve ${paths[failedAt]} (${error.code ?? error.message}), a path commands may not create, so the command was not run. Try again.`,
    };
  }

  private async releaseMountPoints(paths: readonly string[], roots: readonly string[]): Promise<void> {
    const unused: string[] = [];
    for (const target of paths) {
      const users = (this.mountPoints.get(target) ?? 1) - 1;
      if (users > 0) this.mountPoints.set(target, users);
      else {
        this.mountPoints.delete(target);
        this.creating.delete(target);
        unused.push(target);
      }
    }
    if (unused.length === 0) return;
    // Only if still empty: something the user put there stays. Deepest first, so `.git/hooks`
    // goes before `.git`; paths of one depth side by side. Every removal is registered at once,
    // so a new claim of any of them waits for its removal.
    const depth = (target: string): number => target.split(path.sep).length;
    let deeper: Promise<unknown> = Promise.resolve();
    for (const level of [...new Set(unused.map(depth))].sort((a, b) => b - a)) {
      const after = deeper;
      const removals = unused
        .filter((target) => depth(target) === level)
        .map((target) => {
          const removal: Promise<void> = after
            .then(() => rmdirBeneath(target, roots))
            .catch(() => undefined)
            .finally(() => {
              if (this.removing.get(target) === removal) this.removing.delete(target);
            });
          this.removing.set(target, removal);
          return removal;
        });
      deeper = Promise.all(removals);
    }
    await deeper;
    this.recordMountPoints();
  }
}

let foundLaunchShell: string | undefined;
/** The first of LAUNCH_SHELLS that exists (looked up once). */
function launchShell(): string {
  foundLaunchShell ??= LAUNCH_SHELLS.find((candidate) => existsSync(candidate)) ?? '/bin/sh';
  return foundLaunchShell;
}

/**
 * 'yes': an empty directory of mode 0500, the mount point of a MewCode call (this process's or
 * another's, live or killed); 'gone': nothing is there any more (removed while we looked).
 */
async function mountPointLeft(target: string): Promise<'yes' | 'no' | 'gone'> {
  try {
    const info = await lstat(target);
    if (!info.isDirectory() || (info.mode & 0o777) !== 0o500) return 'no';
    return (await readdir(target)).length === 0 ? 'yes' : 'no';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'no';
  }
}

const inspect: Inspect = async (target, follow) => {
  try {
    const info = follow ? await stat(target) : await lstat(target);
    if (info.isSymbolicLink()) return 'symlink';
    if (info.isDirectory()) return 'dir';
    return info.isFile() ? 'file' : 'other';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing' as PathKind;
    // A deny-read path MewCode itself cannot reach is not readable from the sandbox either.
    if (follow && code === 'EACCES') return 'missing' as PathKind;
    throw error;
  }
};

/** A folder's entries with their kinds (links with their text) for a folder rebuilt in the sandbox; undefined when it cannot be listed. */
const listEntries: ListEntries = async (dir) => {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch {
    return undefined;
  }
  // A name that is not UTF-8 cannot be handed to bubblewrap as itself (arguments are passed as
  // UTF-8): the entry would vanish in the sandbox, or a link come back wrong. Such a folder keeps
  // its per-file mounts.
  const names = entries.map((entry) => entry.name.toString('utf8'));
  if (entries.some((entry, i) => !Buffer.from(names[i]!, 'utf8').equals(entry.name))) return undefined;
  return Promise.all(
    entries.map(async (entry, i): Promise<FolderEntry> => {
      const name = names[i]!;
      if (!entry.isSymbolicLink()) return { name, kind: entry.isDirectory() ? 'dir' : entry.isFile() ? 'file' : 'other' };
      const link = await readlink(path.join(dir, name), { encoding: 'buffer' }).catch(() => undefined);
      if (link === undefined || !Buffer.from(link.toString('utf8'), 'utf8').equals(link)) return { name, kind: 'missing' };
      return { name, kind: 'symlink', link: link.toString('utf8') };
    }),
  );
};

const list: List = async (dir) => {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
};

/**
 * The allowed unix sockets (sandbox.allow_unix_sockets), links resolved: only sockets and
 * directories (of sockets), none that is hidden or inside a hidden directory, and no directory
 * holding a hidden path. Bound read-only after the mounts that hide, any of those would put a
 * credential back (a link the project can write naming `~/.ssh/id_rsa`, or the home itself).
 */
async function allowedSockets(paths: readonly string[], plan: MountPlan, refused: (target: string, why: string) => void): Promise<string[]> {
  const kept: string[] = [];
  const hidden = [...plan.hiddenFiles, ...plan.hiddenDirs];
  for (const target of await realPaths(paths)) {
    let info;
    try {
      info = await stat(target);
    } catch {
      continue; // bound once it exists
    }
    if (!info.isSocket() && !info.isDirectory()) refused(target, 'it is neither a socket nor a directory');
    else if (hidden.some((path) => isPathWithin(path, target) || isPathWithin(target, path))) refused(target, 'it is, or holds, a path the sandbox hides');
    else kept.push(target);
  }
  return kept;
}

/**
 * Deny-read paths with links followed (the mount must land on what a read would reach), in
 * parallel (the default list has well over a hundred entries, most of them missing). A missing
 * path is dropped: there is nothing to hide. One that cannot be resolved otherwise is kept as is.
 */
async function realPaths(paths: readonly string[]): Promise<string[]> {
  const resolved = await Promise.all(
    [...new Set(paths)].map(async (target) => {
      try {
        return await realpath(target);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : target;
      }
    }),
  );
  return resolved.filter((target): target is string => target !== undefined);
}
