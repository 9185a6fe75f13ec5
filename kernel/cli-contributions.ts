/**
 * The subcommands and doctor checks of a build (types/cli.ts), found without booting a kernel:
 * the plugin set is resolved exactly as the kernel's boot resolves it (the managed settings read,
 * their plugins loaded, configured plugins loaded unless `allow_managed_plugins_only`, `replaces`
 * and `disable:` applied), then the plugins' declarations are read. No plugin's
 * bindings, `apply` or `start` run, so a subcommand costs only what it loads itself.
 *
 * One plugin per name, as for tools and slash commands: a second plugin's subcommand (or check) of
 * a taken name is left out with a warning naming both, unless it declares `replaces: ['<name>']`.
 * A command of an essential plugin, a safety layer (`audit`) or a required plugin cannot be taken
 * over by a plugin named in configuration; a custom build's own list may.
 */
import { isSubcommandName, type CliSubcommand, type DoctorCheck } from '../types/cli.js';
import type { ResolvedConfig } from '../types/config.js';
import type { MewcodePlugin } from '../types/plugin.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { configScopeAt } from '../config/scope.js';
import { isEmptyPolicy, type ManagedPolicy } from '../types/managed.js';
import { ConfigurationError } from './configuration-error.js';
import { loadExternalPlugins } from './external-plugins.js';
import { readKernelSettings } from './kernel-config.js';
import { loadManaged } from './managed-enforcement.js';
import { resolvePluginSet } from './plugin-set.js';
import { managedRequirementOf, pluginLoadSpecs } from './plugin-specs.js';

export interface BuildPluginsInput {
  /** The build's own list. */
  plugins: readonly MewcodePlugin[];
  config: ResolvedConfig;
  projectRoot: string;
  homeDir: string;
  trust?: WorkspaceTrust;
  /** Where the managed settings are named (MEWCODE_MANAGED_SETTINGS); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The managed settings, when the caller has read them; otherwise read here (unreadable: a ConfigurationError). */
  managed?: ManagedPolicy;
  warn(message: string): void;
  /**
   * A required plugin that cannot be loaded: a ConfigurationError (as at boot, the default), or a
   * warning (commands that inspect, such as `audit verify`, must work while a plugin is broken; a
   * run still stops).
   */
  requiredFailure?: 'throw' | 'warn';
}

export interface BuildPlugins {
  plugins: MewcodePlugin[];
  /** Plugins of the build's own list (the others come from configuration). */
  fromBuild(plugin: MewcodePlugin): boolean;
  /** Plugins the run cannot go without: `required: true` on the plugin or its configuration entry (managed settings' included). */
  isRequired?(plugin: MewcodePlugin): boolean;
}

/**
 * The plugins a run here would load, in order. A configured plugin marked required that cannot
 * be loaded is a ConfigurationError, as at boot.
 */
export async function resolveBuildPlugins(input: BuildPluginsInput): Promise<BuildPlugins> {
  // Before any module is imported: a policy that cannot be read stops here, as it stops a run.
  const policy = await loadManaged(input.managed, input.env ?? process.env);
  const settings = await readKernelSettings(input.config, input.warn);
  const byConfig = 'It is required by configuration (plugins: { use, required: true })';
  const failRequired = (message: string, why = byConfig): void => {
    const error = new ConfigurationError(`${message}. ${why}, so MewCode will not run without it.`);
    if (input.requiredFailure === 'warn') input.warn(error.message);
    else throw error;
  };
  const specs = pluginLoadSpecs(settings.plugins, {
    policy,
    config: input.config,
    projectRoot: input.projectRoot,
    homeDir: input.homeDir,
    trust: input.trust,
    refused: (message, isRequired) => (isRequired ? failRequired(message) : input.warn(message)),
  });
  const external = await loadExternalPlugins(
    specs,
    (spec, message, critical) => {
      const managedBy = managedRequirementOf(policy, spec);
      if (spec.required) failRequired(message, managedBy !== undefined ? `It is required by managed settings (${managedBy})` : spec.requiredAt === undefined ? byConfig : `${byConfig} at ${spec.requiredAt}`);
      else if (critical === true) failRequired(message, 'Its declaration reads as required');
      else input.warn(`${message}; skipped`);
    },
    input.warn,
  );
  const requiredPlugins = new Set(external.filter(({ spec }) => spec.required).map(({ plugin }) => plugin));
  const managedPlugins = new Set(external.filter(({ spec }) => managedRequirementOf(policy, spec) !== undefined).map(({ plugin }) => plugin));
  const sources = new Map(external.map(({ plugin, spec }) => [plugin, spec.spec]));
  const byProject = new Set(settings.disable.filter((_, index) => configScopeAt(input.config, ['disable', index]) !== 'user'));
  const plugins = resolvePluginSet(input.plugins, external.map(({ plugin }) => plugin), settings.disable, input.warn, byProject, {
    sourceOf: (plugin) => sources.get(plugin),
    isRequired: (plugin) => requiredPlugins.has(plugin),
    managedPlugins,
    ...(isEmptyPolicy(policy) ? {} : { safetyLockedBy: policy.files.join(', ') }),
    refuse: (plugin, message) => {
      if (requiredPlugins.has(plugin)) failRequired(message);
      else input.warn(message);
    },
  });
  return { plugins, fromBuild: (plugin) => input.plugins.includes(plugin), isRequired: (plugin) => plugin.required === true || requiredPlugins.has(plugin) };
}

export interface Contribution<T> {
  item: T;
  plugin: MewcodePlugin;
}

interface Claims {
  /** Names the CLI answers itself (`doctor`, `plugin`, `help`…): no plugin may take them. */
  reserved?: ReadonlySet<string>;
  warn(message: string): void;
}

/** The build's subcommands by name, clashes refused (see above). */
export function collectSubcommands(build: BuildPlugins, claims: Claims): Map<string, Contribution<CliSubcommand>> {
  return collect(build, claims, 'subcommand', (plugin) => plugin.subcommands, (command) => (typeof command?.run === 'function' && isSubcommandName(command.name) ? command.name : undefined));
}

/** The build's doctor checks, in plugin order, clashes refused as for subcommands. */
export function collectDoctorChecks(build: BuildPlugins, claims: Claims): Contribution<DoctorCheck>[] {
  return [...collect(build, claims, 'doctor check', (plugin) => plugin.doctorChecks, (check) => (typeof check?.run === 'function' && typeof check.name === 'string' && check.name.trim() !== '' ? check.name : undefined)).values()];
}

function collect<T>(
  build: BuildPlugins,
  claims: Claims,
  kind: string,
  declared: (plugin: MewcodePlugin) => readonly T[] | undefined,
  nameOf: (item: T) => string | undefined,
): Map<string, Contribution<T>> {
  const accepted = new Map<string, Contribution<T>>();
  for (const plugin of build.plugins) {
    const items = declared(plugin);
    if (items === undefined) continue;
    if (!Array.isArray(items)) {
      claims.warn(`plugin ${plugin.name}: its ${kind}s are not a list; none of them is available`);
      continue;
    }
    for (const item of items as readonly T[]) {
      const name = nameOf(item);
      if (name === undefined) {
        claims.warn(`plugin ${plugin.name}: a ${kind} without a valid name (lower case letters, digits, -) or run(); left out`);
        continue;
      }
      if (claims.reserved?.has(name)) {
        claims.warn(`plugin ${plugin.name}: ${kind} ${name} is MewCode's own; left out`);
        continue;
      }
      const holder = accepted.get(name);
      if (holder && holder.plugin !== plugin) {
        const refusal = refusalOf(build, plugin, holder.plugin, kind, name);
        if (refusal) {
          claims.warn(refusal);
          continue;
        }
        accepted.delete(name); // replaced: the newcomer's takes the name
      }
      accepted.set(name, { item, plugin });
    }
  }
  return accepted;
}

function refusalOf(build: BuildPlugins, newcomer: MewcodePlugin, holder: MewcodePlugin, kind: string, name: string): string | undefined {
  if (!(newcomer.replaces ?? []).includes(name)) {
    return `plugin ${newcomer.name}: ${kind} ${name} is already contributed by plugin ${holder.name}; its ${name} is not available (declare replaces: ['${name}'] to replace it)`;
  }
  const protectedKind = build.fromBuild(holder) && holder.essential ? 'essential plugin' : build.fromBuild(holder) && holder.safety ? 'safety layer' : build.isRequired?.(holder) ? 'required plugin' : undefined;
  if (protectedKind && !build.fromBuild(newcomer)) {
    return `plugin ${newcomer.name}: ${kind} ${name} belongs to the ${protectedKind} ${holder.name}, which configuration cannot replace; left out`;
  }
  return undefined;
}
