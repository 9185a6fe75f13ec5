/**
 * The plugin's configuration section:
 *
 *   skills:
 *     extra_roots: [~/.claude/skills, .claude/skills, .agents/skills]   # more folders of skills (default shown)
 *     fork_recent_messages: 10                        # fork_context: recent starts with this many messages
 *     watch: true                                     # reload the catalog when a skills folder changes
 *
 * Validated by hand (as tool-bash's section) to keep zod out of the CLI's main chunk; a bad
 * section is ignored with a warning naming file:line (K2).
 */
import type { ConfigIssue, ConfigSection } from '../../types/config.js';
import { DEFAULT_EXTRA_ROOTS } from './roots.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export interface SkillsSettings {
  extraRoots: readonly string[];
  forkRecentMessages: number;
  watch: boolean;
}

export const DEFAULT_SKILLS_SETTINGS: SkillsSettings = { extraRoots: DEFAULT_EXTRA_ROOTS, forkRecentMessages: 10, watch: true };
export const MAX_FORK_RECENT = 1000;

const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

export const skillsSection: ConfigSection<SkillsSettings> = {
  key: 'skills',
  parse(raw) {
    if (raw === null) return { ok: true, value: DEFAULT_SKILLS_SETTINGS };
    if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, issues: [{ path: [], message: `Expected object, received ${kind(raw)}` }] };
    const issues: ConfigIssue[] = [];
    const value: { -readonly [K in keyof SkillsSettings]: SkillsSettings[K] } = { ...DEFAULT_SKILLS_SETTINGS };
    for (const [key, item] of Object.entries(raw as Record<string, unknown>)) {
      if (key === 'extra_roots') {
        if (!Array.isArray(item)) issues.push({ path: [key], message: `Expected array, received ${kind(item)}` });
        else {
          const roots: string[] = [];
          item.forEach((root: unknown, index) => {
            if (typeof root !== 'string' || !root.trim()) issues.push({ path: [key, index], message: `Expected a folder path, received ${kind(root)}` });
            else roots.push(root.trim());
          });
          value.extraRoots = roots;
        }
      } else if (key === 'fork_recent_messages') {
        if (typeof item !== 'number' || !Number.isInteger(item) || item < 1 || item > MAX_FORK_RECENT) {
          issues.push({ path: [key], message: `Expected an integer from 1 to ${MAX_FORK_RECENT}, received ${JSON.stringify(item)}` });
        } else value.forkRecentMessages = item;
      } else if (key === 'watch') {
        if (typeof item !== 'boolean') issues.push({ path: [key], message: `Expected boolean, received ${kind(item)}` });
        else value.watch = item;
      } else issues.push({ path: [key], message: `Unknown key "${terminalSafe(key)}"` });
    }
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value };
  },
};
