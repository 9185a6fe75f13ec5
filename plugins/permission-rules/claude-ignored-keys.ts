/**
 * The one notice naming what MewCode ignores in Claude Code's settings files: their `hooks` and
 * `permissions` apply (and `enabledPlugins`, `extraKnownMarketplaces`), but keys such as `env`,
 * `model`, `apiKeyHelper` or `statusLine` have no equivalent. Said once per run, every file and
 * key in one line, so a Claude Code user knows those settings are not in effect; nothing is said
 * when no such key is there. This plugin says it because it reads every one of those files at
 * every start (the hooks plugin loads only when a file holds hooks).
 */
import type { SettingsFile } from './settings-files.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export function ignoredClaudeKeysNotice(files: readonly SettingsFile[]): string | undefined {
  const seen = new Set<string>();
  const parts: string[] = [];
  for (const file of files) {
    if (file.ignoredClaudeKeys.length === 0 || seen.has(file.file)) continue;
    seen.add(file.file);
    parts.push(`${file.file}: ${[...file.ignoredClaudeKeys].sort().map((key) => terminalSafe(key)).join(', ')}`);
  }
  if (parts.length === 0) return undefined;
  return `settings: MewCode has no equivalent for these Claude Code settings, so they are ignored (hooks and permissions apply): ${parts.join('; ')}`;
}
