/** The kernel's own configuration sections: which plugins to load and which providers to use. */
import type { ResolvedConfig, ConfigSection } from '../types/config.js';
import { formatConfigIssues } from '../config/validate.js';
import type { ProviderEntry } from './kernel-sections.js';

const KERNEL_SECTION_KEYS = ['plugins', 'disable', 'provider', 'providers'] as const;

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
  providers: ProviderEntry[];
}

export async function readKernelSettings(config: ResolvedConfig, warn: (message: string) => void): Promise<KernelSettings> {
  if (KERNEL_SECTION_KEYS.every((key) => config.section(key) === undefined)) {
    return { plugins: [], disable: [], provider: undefined, providers: [] };
  }
  const { kernelSections: sections } = await import('./kernel-sections.js');
  return {
    plugins: readSection(config, sections.plugins, warn) ?? [],
    disable: readSection(config, sections.disable, warn) ?? [],
    provider: readSection(config, sections.provider, warn),
    providers: readSection(config, sections.providers, warn) ?? [],
  };
}
