/**
 * Where hooks come from. Kept apart from the readers (settings.ts, rule-file.ts) so the plugin's
 * boot (index.ts) can look at these files without loading the hook code.
 */
import path from 'node:path';
import { withClaudeSettingsFile } from '../../config/settings-files.js';

export type HookScope = 'user' | 'project' | 'local';

/**
 * Settings files in Claude Code's shape: hooks under a `hooks` key, among other settings. Every
 * spelling of each (settings.yaml, .yml, .json: config/settings-files.ts, the list the permission
 * rules read too), then Claude Code's own (`~/.claude/settings.json`, `.claude/settings.json`,
 * `.claude/settings.local.json`), the user's first.
 */
export function hookSettingsFiles(projectRoot: string, homeDir: string): { scope: HookScope; file: string }[] {
  return (['user', 'project', 'local'] as const).flatMap((scope) => withClaudeSettingsFile(scope, projectRoot, homeDir).map((file) => ({ scope, file })));
}

/** MewCode's own rule files, which hold nothing but hooks: the project's first. */
export function ruleFiles(projectRoot: string, homeDir: string): { file: string; project: boolean }[] {
  return [
    { file: path.join(projectRoot, '.mewcode', 'hooks.yaml'), project: true },
    { file: path.join(homeDir, '.mewcode', 'hooks.yaml'), project: false },
  ];
}
