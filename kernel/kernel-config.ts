/** The kernel's own configuration sections: which plugins to load and which providers to use. */
import type { ResolvedConfig, ConfigSection } from '../types/config.js';
import { formatConfigIssues } from '../config/validate.js';
import type { ProviderEntry } from './kernel-sections.js';

const KERNEL_SECTION_KEYS = ['plugins', 'disable', 'provider', 'providers', 'max_turns', 'max_tool_concurrency'] as const;

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
  plugins: string[];
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
  if (KERNEL_SECTION_KEYS.every((key) => config.section(key) === undefined)) {
    return { plugins: [], disable: [], provider: undefined, providers: [], providersConfigured: false, maxTurns: undefined, maxToolConcurrency: undefined };
  }
  const { kernelSections: sections } = await import('./kernel-sections.js');
  return {
    plugins: readSection(config, sections.plugins, warn) ?? [],
    disable: readSection(config, sections.disable, warn) ?? [],
    provider: readSection(config, sections.provider, warn),
    providers: readProviderEntries(config, sections.providerEntry, warn),
    providersConfigured: config.section('providers') !== undefined,
    maxTurns: readSection(config, sections.maxTurns, warn),
    maxToolConcurrency: readSection(config, sections.maxToolConcurrency, warn),
  };
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
