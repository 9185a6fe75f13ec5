/**
 * The plugins' commands on the command line (types/cli.ts): `mewcode <name> …` runs the command
 * of that name of the plugins a run here would load (the build's list, then the managed settings'
 * plugins and configuration's `plugins:` — none of those under `allow_managed_plugins_only` —,
 * `replaces` and `disable:`), and `mewcode --help` lists them. No kernel is booted and
 * no plugin applied: the plugins' declarations are read, and only the command asked for loads
 * its code. Imported only when the first word may be a command, so `--version` and `-p` never
 * pay for it.
 */
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { terminal } from '../config/terminal-safe.js';
import { createWorkspaceTrust } from '../config/trust.js';
import { ConfigurationError } from '../kernel/configuration-error.js';
import { collectSubcommands, resolveBuildPlugins, type BuildPlugins, type Contribution } from '../kernel/cli-contributions.js';
import { defaultPlugins, withFreshState } from '../plugins/default-set.js';
import type { CliSubcommand, InspectionKernel, SubcommandContext } from '../types/cli.js';
import type { MewcodePlugin } from '../types/plugin.js';
import { formatCommandHelp, HELP_HEAD, HELP_TAIL, OWN_COMMANDS, OWN_COMMANDS_HELP } from './cli-args.js';
import { bootWithoutProvider } from './doctor-kernel.js';
import { pluginDebugEnabled } from '../kernel/plugin-debug.js';
import { messageLines } from '../types/notice-line.js';

/**
 * Words that were MewCode's own commands before the plugins contributed them: when no plugin of
 * this build provides one, `mewcode <word>` says so instead of sending the word to the model.
 */
const KNOWN_COMMAND_WORDS: ReadonlySet<string> = new Set(['audit', 'sessions', 'skills', 'hooks', 'mcp']);

interface Place {
  cwd: string;
  homeDir: string;
  env: NodeJS.ProcessEnv;
}

interface Lookup {
  build: BuildPlugins;
  commands: Map<string, Contribution<CliSubcommand>>;
  warnings: string[];
}

function trustFlagIn(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--trust-project') || ['1', 'true'].includes((env.MEWCODE_TRUST_PROJECT ?? '').trim().toLowerCase());
}

async function lookUp(place: Place, trustProject: boolean, plugins: readonly MewcodePlugin[]): Promise<Lookup> {
  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };
  const trust = await createWorkspaceTrust({ projectRoot: place.cwd, homeDir: place.homeDir, env: place.env, flag: trustProject });
  const config = await loadConfig({ cwd: place.cwd, homeDir: place.homeDir, trust });
  // A required plugin that cannot load stops every run, not the commands that inspect (audit verify, sessions).
  const build = await resolveBuildPlugins({ plugins, config, projectRoot: place.cwd, homeDir: place.homeDir, trust, env: place.env, warn, requiredFailure: 'warn' });
  const commands = collectSubcommands(build, { reserved: OWN_COMMANDS, warn });
  return { build, commands, warnings };
}

function here(): Place {
  return { cwd: process.cwd(), homeDir: os.homedir(), env: process.env };
}

/**
 * Runs `argv[0]` when a plugin provides it and resolves to its exit code; undefined when no
 * plugin does and the word was never a command (the command line is then a prompt, as always).
 */
export async function dispatchPluginSubcommand(argv: readonly string[], plugins: readonly MewcodePlugin[] = defaultPlugins, place: Place = here()): Promise<number | undefined> {
  const name = argv[0]!;
  let lookup: Lookup;
  try {
    lookup = await lookUp(place, trustFlagIn(argv, place.env), plugins);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    terminal.err(messageLines('mewcode: ', error.message));
    return 2;
  }
  const entry = lookup.commands.get(name);
  if (!entry) {
    const declaredBy = plugins.find((plugin) => Array.isArray(plugin.subcommands) && plugin.subcommands.some((command) => command?.name === name));
    if (!declaredBy && !KNOWN_COMMAND_WORDS.has(name)) return undefined;
    for (const warning of lookup.warnings) terminal.err(messageLines('mewcode: warning: ', warning));
    const why = declaredBy
      ? `plugin ${declaredBy.name}, which provides it, is not loaded here (disabled or replaced by the configuration)`
      : 'no plugin of this build provides it';
    terminal.err(`mewcode: the command "${name}" is not available: ${why}. mewcode --help lists the commands there are.\n`);
    return 2;
  }
  for (const warning of lookup.warnings) terminal.err(messageLines('mewcode: warning: ', warning));
  const context: SubcommandContext = {
    argv: argv.slice(1),
    cwd: place.cwd,
    homeDir: place.homeDir,
    // A copy: the command reads the environment, it does not change the one every later run here reads.
    env: Object.freeze({ ...place.env }),
    out: terminal.out,
    err: terminal.err,
    bootKernel: (options) => bootForInspection(place, options.trustProject, plugins),
    openRun: lookup.build.fromBuild(entry.plugin) ? openRunFor(place, plugins) : refuseOpenRun(entry.plugin),
  };
  try {
    return await entry.item.run(context);
  } catch (error) {
    const detail = pluginDebugEnabled(place.env, argv.includes('--debug')) && error instanceof Error && error.stack ? `\n${error.stack}` : '';
    terminal.err(messageLines('mewcode: ', `${name} (plugin ${entry.plugin.name}) failed: ${error instanceof Error ? error.message : String(error)}${detail}`));
    return 1;
  }
}

/**
 * A real run for a command of the build's own plugins (the editor protocol's `mewcode acp`): its
 * `extraPlugins` join the run as the build's (bindings only a front end provides, such as
 * TOKENS.CommandLauncher) and its `ui` is the run's front end, the one that answers the user's
 * questions, the organisation's and the required plugins' asks included.
 */
function openRunFor(place: Place, plugins: readonly MewcodePlugin[]): SubcommandContext['openRun'] {
  return async (options, ui, extraPlugins = []) => {
    const { openRun } = await import('./open-run.js');
    // Each run its own plugin objects: one session's shutdown closes nothing of another's.
    const kernel = await openRun(options, withFreshState([...plugins, ...extraPlugins]), ui, { homeDir: place.homeDir, env: place.env });
    return { kernel, shutdown: () => kernel.shutdown() };
  };
}

/**
 * A plugin named in configuration opens no run: what openRun gives (the build's rank for the
 * extra plugins, the front end's say on every ask) is beyond what configuration may grant, and a
 * run with its extras ranked as configured plugins and its front end unable to answer could not
 * do what a front end is for. Its commands inspect with bootKernel instead.
 */
function refuseOpenRun(plugin: MewcodePlugin): SubcommandContext['openRun'] {
  return () =>
    Promise.reject(
      new Error(`openRun is for the commands of the build's own plugins (a front end such as mewcode acp); plugin ${plugin.name} is named in configuration, and a run it opened would make its front end the approver of every ask and its extra plugins part of the build`),
    );
}

async function bootForInspection(place: Place, trustProject: boolean, plugins: readonly MewcodePlugin[]): Promise<InspectionKernel> {
  const trust = await createWorkspaceTrust({ projectRoot: place.cwd, homeDir: place.homeDir, env: place.env, flag: trustProject });
  const config = await loadConfig({ cwd: place.cwd, homeDir: place.homeDir, trust });
  for (const warning of config.warnings) terminal.err(messageLines('mewcode: ', warning));
  const booted = await bootWithoutProvider({ options: { cwd: place.cwd, trustProject }, homeDir: place.homeDir, env: place.env, plugins: [...plugins], config, trust, shown: new Set() });
  for (const warning of booted.warnings) terminal.err(messageLines('mewcode: ', warning));
  const kernel = booted.kernel;
  if (!kernel) throw booted.error instanceof Error ? booted.error : new Error(String(booted.error));
  return { kernel, trustNotice: () => trust.notice(), shutdown: () => kernel.shutdown() };
}

/** `mewcode --help`: the options, MewCode's own commands, then the commands of this build's plugins. */
export async function helpText(plugins: readonly MewcodePlugin[] = defaultPlugins, argv: readonly string[] = [], place: Place = here()): Promise<{ text: string; warnings: string[] }> {
  let commands: CliSubcommand[] = [];
  let warnings: string[] = [];
  try {
    const lookup = await lookUp(place, trustFlagIn(argv, place.env), plugins);
    commands = [...lookup.commands.values()].map(({ item }) => item);
    warnings = lookup.warnings;
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    warnings = [error.message];
  }
  const listed = commands.map((command) => ({ usage: typeof command.usage === 'string' ? command.usage : command.name, summary: typeof command.summary === 'string' ? command.summary : '' }));
  const fromPlugins = listed.length > 0 ? `${formatCommandHelp(listed)}\n` : '';
  return { text: `${HELP_HEAD}${OWN_COMMANDS_HELP}${fromPlugins}${HELP_TAIL}`, warnings };
}
