/** The kernel's own configuration sections: which plugins to load and which providers to use. */
import { z } from 'zod';
import type { ResolvedConfig } from '../types/config.js';
import type { ConfigSection } from '../types/config.js';
import { formatConfigIssues, zodSection } from '../config/index.js';
import { activeProviderSchema, providersSchema, type ProviderEntry } from './provider-settings.js';

const sections = {
  plugins: zodSection('plugins', z.array(z.string().min(1))),
  disable: zodSection('disable', z.array(z.string().min(1))),
  provider: zodSection('provider', activeProviderSchema),
  providers: zodSection('providers', providersSchema),
};

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

export function readKernelSettings(config: ResolvedConfig, warn: (message: string) => void): KernelSettings {
  return {
    plugins: readSection(config, sections.plugins, warn) ?? [],
    disable: readSection(config, sections.disable, warn) ?? [],
    provider: readSection(config, sections.provider, warn),
    providers: readSection(config, sections.providers, warn) ?? [],
  };
}
