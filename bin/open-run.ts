/**
 * Boots a kernel for a real run, the way `mewcode -p` does: workspace trust, configuration,
 * plugins, their start(), the front end's output attached, the session started (or a saved one
 * resumed). Shared by the CLI (main.ts), front ends that run several sessions in one process
 * (the editor protocol's `mewcode acp`, which gets it as `SubcommandContext.openRun`) and the
 * programmatic API. Every failure is an `OpenRunError` whose message names the plugin, file or
 * setting and whose `exitCode` is what the CLI exits with.
 */
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { createWorkspaceTrust } from '../config/trust.js';
import { Kernel, ConfigurationError, type AddedPlugins } from '../kernel/index.js';
import type { CliOptions, MewcodePlugin, UserInterface } from '../types/plugin.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { TOKENS } from '../types/tokens.js';
import { sessionDamageNote } from '../types/session-damage.js';
import { monotonicMs } from '../sdk/monotonic-clock.js';

export class OpenRunError extends Error {
  constructor(message: string, readonly exitCode: number) {
    super(message);
    this.name = 'OpenRunError';
  }
}

export interface BootedKernel {
  kernel: Kernel;
  trust: WorkspaceTrust;
  /** Boot phases in ms, for --debug-boot. */
  phases: { trust: number; config: number; kernel: number };
}

export interface BootPlace {
  homeDir?: string;
  env?: NodeJS.ProcessEnv;
  /** A host's plugins for this run (query()'s options.plugins): configured plugins, never the build's. */
  added?: AddedPlugins;
}

/** Trust, configuration and Kernel.create (plugins bound and applied, nothing started yet). */
export async function bootKernel(options: CliOptions, plugins: readonly MewcodePlugin[], place: BootPlace = {}, trust?: WorkspaceTrust): Promise<BootedKernel> {
  const started = monotonicMs();
  const homeDir = place.homeDir ?? os.homedir();
  // Workspace trust first: the project's settings that run code or send data (plugins, providers,
  // hooks, MCP servers…) are left out of the configuration unless the user trusts the project.
  // A custom build's own plugins' sections are the build's, not a configured plugin's (which need trust).
  const buildConfigKeys = plugins.flatMap((plugin) => [...(plugin.config ? [plugin.config.key] : []), ...(plugin.configKeys ?? [])]);
  const workspaceTrust = trust ?? (await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: place.env ?? process.env, flag: options.trustProject === true, buildConfigKeys }));
  const trustDone = monotonicMs();
  const config = await loadConfig({ cwd: options.cwd, homeDir, trust: workspaceTrust, ...(options.settingSources ? { layers: options.settingSources } : {}) });
  const configDone = monotonicMs();
  const flags: { provider?: string; model?: string } = {};
  if (options.provider !== undefined) flags.provider = options.provider;
  if (options.model !== undefined) flags.model = options.model;
  try {
    // Started by startRun, once no trust dialog can make this kernel the one that is thrown away.
    const kernel = await Kernel.create({ plugins, config, projectRoot: options.cwd, homeDir, flags, cli: options, trust: workspaceTrust, deferStart: true, ...(place.env ? { env: place.env } : {}), ...(place.added ? { added: place.added } : {}) });
    return { kernel, trust: workspaceTrust, phases: { trust: trustDone - started, config: configDone - trustDone, kernel: monotonicMs() - configDone } };
  } catch (error) {
    if (error instanceof ConfigurationError) throw new OpenRunError(error.message, 2);
    throw error;
  }
}

/**
 * Starts the plugins, makes `ui` the kernel's front end (its output gets the buffered notices
 * first), resumes the saved session the options name, if any, and starts the session. On failure the
 * kernel is shut down before the error is thrown.
 */
export async function startRun(booted: BootedKernel, ui: UserInterface, options: CliOptions): Promise<void> {
  const { kernel, trust } = booted;
  kernel.startPlugins();
  try {
    // A required, essential or safety plugin whose start() fails or hangs ends the run before any
    // request (immediate when none of them has a start()).
    await kernel.criticalPluginsReady();
  } catch (error) {
    kernel.output.flushToFallback();
    await kernel.shutdown();
    if (error instanceof ConfigurationError) throw new OpenRunError(error.message, 2);
    throw error;
  }
  kernel.activateUi(ui);
  for (const warning of trust.warnings) kernel.warn(warning);
  const notice = trust.notice(); // after boot: it also lists settings refused while plugins loaded
  if (notice) kernel.notify('warning', notice);
  if (options.continueLatest || options.resumeId !== undefined) {
    try {
      await resumeSaved(kernel, options);
    } catch (error) {
      await kernel.shutdown();
      throw error;
    }
  }
  await kernel.startSession();
}

/** Boot and start in one step, for front ends with no trust dialog (the editor protocol, the API). */
export async function openRun(options: CliOptions, plugins: readonly MewcodePlugin[], ui: UserInterface, place: BootPlace = {}): Promise<Kernel> {
  const booted = await bootKernel(options, plugins, place);
  await startRun(booted, ui, options);
  return booted.kernel;
}

/** `--continue` / `--resume <id>`: the saved session becomes the main one. */
async function resumeSaved(kernel: Kernel, options: CliOptions): Promise<void> {
  if (!kernel.container.isBound(TOKENS.SessionStore)) throw new OpenRunError('this build has no session plugin, so there is nothing to continue', 2);
  const store = kernel.container.get(TOKENS.SessionStore);
  let id: string | undefined;
  try {
    id = options.resumeId ?? (await store.latest());
  } catch (error) {
    throw new OpenRunError(`cannot continue the session: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
  if (id === undefined) throw new OpenRunError(`no saved session to continue in ${options.cwd}; start one with mewcode -p "…"`, 2);
  try {
    const loaded = await store.load(id);
    const session = await kernel.resumeSession(loaded);
    const damage = sessionDamageNote(loaded);
    if (damage !== undefined) kernel.warn(`session: ${loaded.file}: ${damage}`);
    if (loaded.idleMs > PAUSE_NOTE_AFTER_MS) {
      session.injectReminder(`This session was paused for ${formatPause(loaded.idleMs)}. Files in the project may have changed since; read them again before relying on what you saw.`);
    }
  } catch (error) {
    throw new OpenRunError(`cannot continue the session: ${error instanceof Error ? error.message : String(error)}`, 2);
  }
}

/** After more than 6 h away the model is told (files may have changed). */
const PAUSE_NOTE_AFTER_MS = 6 * 60 * 60 * 1000;

function formatPause(ms: number): string {
  const hours = Math.floor(ms / 3_600_000);
  return hours >= 48 ? `${Math.floor(hours / 24)} days` : `${hours} hours`;
}
