/**
 * Claude Code's per-server switches for `.mcp.json`, from its settings files (`~/.claude/settings.json`,
 * `.claude/settings.json`, `.claude/settings.local.json`):
 * - `disabledMcpjsonServers: [name…]` — that `.mcp.json` server is not started (listed as
 *   disabled, as `enabled: false` would list it). It only takes away, so every file counts,
 *   an untrusted project's included.
 * - `enabledMcpjsonServers` / `enableAllProjectMcpServers` — Claude Code's approval of the
 *   project's servers; here workspace trust is that approval (a project's file cannot approve
 *   itself), so they change nothing and are not reported as ignored either.
 */
import { formatPos } from '../../config/located.js';
import { parseConfigText } from '../../config/parse-file.js';
import { readConfigFile } from '../../config/config-file.js';
import { claudeSettingsFileOf } from '../../config/settings-files.js';

/** Every `.mcp.json` server name a Claude Code settings file disables, with where it is written. */
export function disabledMcpJsonServers(projectRoot: string, homeDir: string, warn: (message: string) => void): Map<string, string> {
  const disabled = new Map<string, string>();
  for (const scope of ['user', 'project', 'local'] as const) {
    const file = claudeSettingsFileOf(scope, projectRoot, homeDir);
    if (file === undefined) continue;
    const read = readConfigFile(file, scope === 'user' ? undefined : projectRoot);
    if (!read.ok) continue; // the settings readers report an unreadable file
    const parsed = parseConfigText(file, read.text);
    if (parsed.error || parsed.root.kind !== 'map') continue;
    const node = parsed.root.entries.get('disabledMcpjsonServers');
    if (node === undefined) continue;
    if (node.kind !== 'seq') {
      warn(`mcp: ${formatPos(node.pos)}: disabledMcpjsonServers must be a list of server names; ignored`);
      continue;
    }
    for (const item of node.items) {
      if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') {
        if (!disabled.has(item.value.trim())) disabled.set(item.value.trim(), formatPos(item.pos));
      } else warn(`mcp: ${formatPos(item.pos)}: disabledMcpjsonServers: an entry must be a server name; ignored`);
    }
  }
  return disabled;
}
