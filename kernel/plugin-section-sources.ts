/**
 * Which files a configured plugin's own configuration section (`config: zodSection('orgpol', …)`)
 * is read from. A plugin's settings come only from places at least as strong as the one that made
 * it run, and never from an untrusted project: otherwise `orgpol: { enforce: false }` in a
 * repository's `.mewcode.yaml` (or the user's own file) would switch an organisation's policy off.
 *
 *   build       the merged configuration, as for every plugin of the build
 *   managed     the managed file that lists it, alone; a user's or project's value is ignored (warned)
 *   user        required by the user's file: the user's file alone; a project's value is ignored
 *               (warned), a key the user did not set included (a project adds nothing to a policy)
 *   configured  the merged configuration without an untrusted project's files (listed by the trust
 *               notice); a trusted project layers over the user's file
 */
import type { ConfigPath, ConfigSection, FileSection, ResolvedConfig } from '../types/config.js';
import type { ManagedPolicy, ManagedSection } from '../types/managed.js';
import type { WorkspaceTrust } from '../types/trust.js';
import { formatConfigIssues } from '../config/validate.js';
import { renderConfigPath } from '../config/config-path.js';
import { MANAGED_TOP_KEYS } from '../config/managed-settings.js';
import { ConfigurationError } from './configuration-error.js';

export type SectionAnchor =
  | { kind: 'build' }
  | { kind: 'managed'; file: string }
  | { kind: 'user'; requiredAt: string | undefined }
  | { kind: 'configured' };

export interface SectionPlace {
  /** The configuration as loaded (with its per-file view when read from files). */
  config: ResolvedConfig;
  policy: ManagedPolicy;
  trust: WorkspaceTrust | undefined;
  warn(message: string): void;
}

/** The raw value a plugin reads, and where each part of it is written (for the parser's messages). */
export interface SectionSource {
  value: unknown;
  locate(path: ConfigPath): string | undefined;
  /** Set when the value is the managed file's. */
  managed?: ManagedSection;
}

const isProject = (file: FileSection): boolean => file.layer === 'project';

/**
 * A project file's value applies only when the project is trusted with this very value: the trust
 * scan lists and hashes every top-level key the build does not read (config/trust-keys.ts), so the
 * notice names what was left out and a changed section asks again.
 */
function projectApproves(place: SectionPlace, file: FileSection, key: string): boolean {
  return place.trust === undefined || place.trust.approves(file.file, key, file.value);
}

function ignored(place: SectionPlace, key: string, files: readonly FileSection[], why: string): void {
  if (files.length === 0) return;
  place.warn(`config: ${files.map((file) => file.at).join(', ')}: ${key}: ignored: ${why}`);
}

export function sectionSource(plugin: string, key: string, anchor: SectionAnchor, place: SectionPlace): SectionSource {
  const { config } = place;
  const whole = (): SectionSource => ({ value: config.section(key), locate: (path) => config.locate(path) });
  if (anchor.kind === 'build') return whole();
  const files = config.sectionFiles?.(key);
  if (anchor.kind === 'managed') {
    const managed = place.policy.sections?.find((section) => section.key === key && section.file === anchor.file);
    const others = files ?? (config.section(key) === undefined ? [] : [{ layer: 'user' as const, file: '', at: 'configuration', value: undefined }]);
    ignored(place, key, others, `plugin ${plugin} is managed by ${anchor.file}, and only that file configures it`);
    if (managed === undefined) return { value: undefined, locate: () => undefined };
    return { value: managed.value, locate: () => managed.where, managed };
  }
  // A configuration built by hand has no files to tell apart: all of it is the host's.
  if (files === undefined || config.sectionFrom === undefined) return whole();
  if (anchor.kind === 'user') {
    const refused = files.filter((file) => isProject(file) && projectApproves(place, file, key));
    const required = anchor.requiredAt === undefined ? 'your configuration' : `your configuration (${anchor.requiredAt})`;
    ignored(place, key, refused, `plugin ${plugin} is required by ${required}, so only your own configuration file sets its section, which a project cannot change`);
    return config.sectionFrom(key, (file) => !isProject(file));
  }
  return config.sectionFrom(key, (file) => !isProject(file) || projectApproves(place, file, key));
}

/** Validate a section from its source; a managed section the plugin refuses ends the run (fail closed). */
export function parseSectionFrom<T>(source: SectionSource, section: ConfigSection<T>, config: ResolvedConfig, warn: (message: string) => void): T | undefined {
  if (source.value === undefined) return undefined;
  const parsed = section.parse(source.value);
  if (parsed.ok) return parsed.value;
  if (source.managed) {
    const issues = parsed.issues.map((issue) => `${renderConfigPath([section.key, ...issue.path])}: ${issue.message}`);
    throw new ConfigurationError(`managed settings ${source.managed.where}: ${issues.join('; ')}; MewCode does not run with a managed setting it cannot apply`);
  }
  const view: ResolvedConfig = { ...config, section: () => source.value, locate: source.locate };
  for (const message of formatConfigIssues(view, section.key, parsed.issues)) warn(`${message} (section ignored)`);
  return undefined;
}

/** Each managed section must be read by a plugin its own file lists; anything else is a mistake (exit 2). */
export function refuseUnreadManagedSections(policy: ManagedPolicy, readBy: (section: ManagedSection) => boolean): void {
  for (const section of policy.sections ?? []) {
    if (readBy(section)) continue;
    throw new ConfigurationError(
      `managed settings ${section.where}: ${section.key}: unknown key (managed settings have ${MANAGED_TOP_KEYS.join(', ')}, and the configuration sections of the plugins the same file lists; none of them reads "${section.key}"); MewCode does not run with a managed setting it cannot apply`,
    );
  }
}
