/** A Claude Code plugin directory with one of every contribution, written for a test. */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export interface KitOptions {
  /** The MCP server's command and arguments (a real MCP server in the end-to-end test). */
  mcp?: { command: string; args: string[] };
}

/** The plugin `kit` in `dir`: a command, an agent, a skill, a PreToolUse hook with its script, and an MCP server. */
export function writeKitPlugin(dir: string, options: KitOptions = {}): void {
  write(path.join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'kit', version: '1.2.0', description: 'A kit of everything', author: { name: 'Kit Author', email: 'kit@example.com' } }, null, 2));
  write(
    path.join(dir, 'commands', 'hello.md'),
    '---\ndescription: Say hello\nargument-hint: <who> <other>\nallowed-tools: Bash(echo:*)\n---\nHello $0 and $ARGUMENTS[1]!\nRoot: ${CLAUDE_PLUGIN_ROOT}\n!`echo plugin-line-$((40+2))`\n',
  );
  write(path.join(dir, 'agents', 'reviewer.md'), '---\nname: reviewer\ndescription: Reviews things for the kit\ntools: Read, Grep\n---\nYou are the kit reviewer. Kit files live in ${CLAUDE_PLUGIN_ROOT}.\n');
  write(path.join(dir, 'skills', 'style', 'SKILL.md'), "---\nname: style\ndescription: The kit's house style\n---\nKIT-STYLE-RULES from ${CLAUDE_PLUGIN_ROOT}\n");
  write(
    path.join(dir, 'hooks', 'hooks.json'),
    JSON.stringify({
      description: 'Guards bash',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '"${CLAUDE_PLUGIN_ROOT}"/scripts/guard.sh', timeout: 30 }] }] },
    }),
  );
  // Blocks a bash call whose input says "forbidden"; records the plugin root it was given.
  write(path.join(dir, 'scripts', 'guard.sh'), '#!/bin/sh\nprintf %s "$CLAUDE_PLUGIN_ROOT" > "$CLAUDE_PLUGIN_ROOT/hook-saw-root.txt"\nif grep -q forbidden; then echo "kit guard blocks this bash call" >&2; exit 2; fi\nexit 0\n');
  chmodSync(path.join(dir, 'scripts', 'guard.sh'), 0o755);
  if (options.mcp) write(path.join(dir, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: options.mcp.command, args: options.mcp.args } } }));
}
