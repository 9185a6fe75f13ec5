/** The kernel's own configuration sections: which plugins to load and which providers to use. */
import type { ResolvedConfig, ConfigSection } from '../types/config.js';
import { formatConfigIssues } from '../config/validate.js';
import { ConfigurationError } from './configuration-error.js';
import type { PluginObjectEntry, ProviderEntry } from './kernel-sections.js';

export const KERNEL_SECTION_KEYS = ['plugins', 'disable', 'provider', 'providers', 'plugin_start_timeout_ms', 'max_turns', 'max_tool_concurrency'] as const;

/** A `plugins:` entry; `index` is its place in the merged list (for its file and scope). */
export interface PluginEntry {
  use: string;
  required: boolean;
  index: number;
}

/**
 * The configuration as the kernel keeps it and the container hands it to every plugin: frozen,
 * each `section()` a fresh copy, so no plugin changes what another reads after it (a replaced
 * `section`, a layer marked as the user's).
 */
export function frozenConfig(config: ResolvedConfig, sections: ReadonlyMap<string, unknown> = new Map()): ResolvedConfig {
  return Object.freeze({
    layers: Object.freeze(config.layers.map((layer) => Object.freeze({ ...layer }))),
    warnings: Object.freeze([...config.warnings]),
    ...(config.fileKeys !== undefined ? { fileKeys: Object.freeze(config.fileKeys.map((entry) => Object.freeze({ ...entry }))) } : {}),
    // A configured plugin's section as the kernel read it for that plugin (plugin-section-sources.ts),
    // so a plugin reading it here sees what kernel.config() gives, not an untrusted project's value.
    section: (key: string): unknown => structuredClone(sections.has(key) ? sections.get(key) : config.section(key)),
    locate: (path: Parameters<ResolvedConfig['locate']>[0]) => config.locate(path),
  });
}

/** Validate one section; a bad section is reported with file, line and key, and treated as absent (K2). */
export function readSection<T>(config: ResolvedConfig, section: ConfigSection<T>, warn: (message: string) => void): T | undefined {
  const raw = config.section(section.key);
  if (raw === undefined) return undefined;
  const parsed = section.parse(raw);
  if (parsed.ok) return parsed.value;
  for (const message of formatConfigIssues(config, section.key, parsed.issues)) warn(`${message} (section ignored)`);
  return undefined;
}

export interface KernelSettings {
  plugins: PluginEntry[];
  /** `plugin_start_timeout_ms`: the bound of a start() whose plugin declares none. */
  pluginStartTimeoutMs: number | undefined;
  disable: string[];
  provider: string | undefined;
  /** The valid entries of `providers:`; a bad entry is skipped with a warning, not the whole list. */
  providers: ProviderEntry[];
  /** Whether configuration has a `providers:` section at all (then the environment is not used). */
  providersConfigured: boolean;
  /** `max_turns`: model turns a main-session run may take. */
  maxTurns: number | undefined;
  /** `max_tool_concurrency`: how many concurrency-safe calls of one turn run at once. */
  maxToolConcurrency: number | undefined;
}

export async function readKernelSettings(config: ResolvedConfig, warn: (message: string) => void): Promise<KernelSettings> {
  refuseUnreadablePluginFiles(config);
  if (KERNEL_SECTION_KEYS.every((key) => config.section(key) === undefined)) {
    return { plugins: [], pluginStartTimeoutMs: undefined, disable: [], provider: undefined, providers: [], providersConfigured: false, maxTurns: undefined, maxToolConcurrency: undefined };
  }
  const { kernelSections: sections } = await import('./kernel-sections.js');
  return {
    plugins: readPluginEntries(config, sections, warn),
    pluginStartTimeoutMs: readSection(config, sections.plugin_start_timeout_ms, warn),
    disable: readSection(config, sections.disable, warn) ?? [],
    provider: readSection(config, sections.provider, warn),
    providers: readProviderEntries(config, sections.providerEntry, warn),
    providersConfigured: config.section('providers') !== undefined,
    maxTurns: readSection(config, sections.maxTurns, warn),
    maxToolConcurrency: readSection(config, sections.maxToolConcurrency, warn),
  };
}

/**
 * A configuration file that could not be parsed (a YAML error anywhere in it, a duplicate key)
 * while its text names `plugins:` stops the run: the plugins it names, a required policy among
 * them, would otherwise be lost with a warning while the run goes on.
 */
function refuseUnreadablePluginFiles(config: ResolvedConfig): void {
  for (const layer of config.layers) {
    if (layer.loaded || layer.pluginsLine === undefined) continue;
    throw new ConfigurationError(
      `${layer.error ?? `config: ${layer.file}: cannot be read`}. ${layer.file}:${layer.pluginsLine} names plugins:, and MewCode does not run with a plugins: section it cannot read (a required plugin would be lost)`,
    );
  }
}

/** K2: each provider entry is validated on its own, so one typo does not discard the others. */
function readProviderEntries(config: ResolvedConfig, entry: ConfigSection<ProviderEntry>, warn: (message: string) => void): ProviderEntry[] {
  const raw = config.section('providers');
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    for (const message of formatConfigIssues(config, 'providers', [{ path: [], message: 'Expected a list of provider entries' }])) warn(`${message} (section ignored)`);
    return [];
  }
  const entries: ProviderEntry[] = [];
  raw.forEach((item: unknown, index: number) => {
    const parsed = entry.parse(item);
    if (parsed.ok) entries.push(parsed.value);
    else {
      const issues = parsed.issues.map((issue) => ({ ...issue, path: [index, ...issue.path] }));
      for (const message of formatConfigIssues(config, 'providers', issues)) warn(`${message} (provider entry skipped)`);
    }
  });
  return entries;
}

/**
 * `plugins:` entry by entry. A bad string entry is skipped with a warning (K2); a bad object
 * entry stops the run: the object form exists to say `required`, and a misspelt key must not
 * quietly turn an organisation's required plugin into a missing one. The same module named twice
 * (e.g. by two files) loads once, required if any entry says so.
 */
function readPluginEntries(
  config: ResolvedConfig,
  sections: { plugins: ConfigSection<unknown[]>; pluginName: ConfigSection<string>; pluginObject: ConfigSection<PluginObjectEntry> },
  warn: (message: string) => void,
): PluginEntry[] {
  // The section itself must be a list: a mapping (a forgotten `- `) or a single string would drop
  // every plugin it names, a required one included, with only a warning.
  const given = config.section('plugins');
  if (given === undefined) return [];
  const list = sections.plugins.parse(given);
  if (!list.ok) {
    const messages = formatConfigIssues(config, 'plugins', list.issues);
    throw new ConfigurationError(`${messages.join('; ')}. plugins: is a list (each entry on a line starting with "- "); MewCode does not run with a plugins: section it cannot read`);
  }
  const raw = list.value;
  const entries: PluginEntry[] = [];
  raw.forEach((item, index) => {
    const isObject = typeof item === 'object' && item !== null && !Array.isArray(item);
    const parsed = isObject ? sections.pluginObject.parse(item) : sections.pluginName.parse(item);
    if (!parsed.ok) {
      const messages = formatConfigIssues(config, 'plugins', parsed.issues.map((issue) => ({ ...issue, path: [index, ...issue.path] })));
      if (isObject) {
        throw new ConfigurationError(`${messages.join('; ')}. A plugins: entry is a module name or { use: <module>, required: true|false }; MewCode does not run with a plugin entry it cannot read`);
      }
      for (const message of messages) warn(`${message} (plugin entry skipped)`);
      return;
    }
    const value = parsed.value;
    const use = typeof value === 'string' ? value : value.use;
    const required = typeof value === 'string' ? false : value.required === true;
    const same = entries.find((e) => e.use === use);
    if (same) same.required ||= required;
    else entries.push({ use, required, index });
  });
  return entries;
}
