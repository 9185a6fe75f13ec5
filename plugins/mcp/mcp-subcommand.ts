/**
 * `mewcode mcp list`: boots the kernel as a run in this directory would (trust, configuration,
 * plugins; the provider replaced by a stand-in, so no key is needed), waits until every MCP
 * server's first connect settled, prints one line per server, and shuts down (every server
 * closed). Exit 0 when every enabled, trusted server connected; 1 when one failed; 2 when the
 * kernel could not boot.
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import type { SubcommandContext } from '../../types/cli.js';
import type { McpServers, McpServerStatus } from '../../types/mcp.js';
import { TOKENS } from '../../types/tokens.js';
import { parseSubcommandArgs, trustProjectFlag, usageError } from '../../sdk/subcommand-args.js';
import { messageLines } from '../../types/notice-line.js';

export const MCP_USAGE = 'usage: mewcode mcp list [--trust-project]';

/** Terminal escapes in a server's error or a config value never reach the terminal. */
const printable = (text: string): string => terminalSafe(text);

export function describeServer(server: McpServerStatus, home: string): string[] {
  const tilde = (file: string): string => (file.startsWith(`${home}/`) ? `~${file.slice(home.length)}` : file);
  const head = [server.name, server.state, server.transport, `${server.toolCount} tool${server.toolCount === 1 ? '' : 's'}`].join('  ');
  const lines = [printable(head), `    from ${printable(server.source)}`];
  if (server.undefinedVariables.length > 0) lines.push(`    unset variables: ${server.undefinedVariables.join(', ')} (used as empty strings)`);
  if (server.lastError) lines.push(`    ${server.state === 'failed' ? 'error' : 'note'}: ${printable(server.lastError)}`);
  if (server.logPath) lines.push(`    log: ${tilde(server.logPath)}`);
  return lines;
}

/** Claude Code's `claude mcp …` verbs that edit its own files: MewCode does not edit them; it says where a server goes. */
const CLAUDE_EDIT_VERBS: ReadonlySet<string> = new Set(['add', 'add-json', 'remove', 'get', 'add-from-claude-desktop', 'reset-project-choices', 'serve']);

export const WHERE_SERVERS_GO =
  'add the server under mcp_servers: in ~/.mewcode/config.yaml (yours, every project) or .mewcode.yaml (the project\'s), or under mcpServers in the project\'s .mcp.json ' +
  '(Claude Code\'s shape: {"command", "args", "env"} or {"type": "http", "url", "headers"}); servers `claude mcp add` stored in ~/.claude.json are used as they are; ' +
  '--mcp-config <file-or-json> adds one for a single run';

export async function runMcpCommand(context: SubcommandContext): Promise<number> {
  const verb = context.argv[0];
  if (verb !== undefined && CLAUDE_EDIT_VERBS.has(verb)) {
    context.err(`mewcode: mcp ${verb} is Claude Code's command; MewCode does not edit server files: ${WHERE_SERVERS_GO}. ${MCP_USAGE}\n`);
    return 2;
  }
  const parsed = parseSubcommandArgs(context, { 'trust-project': { type: 'boolean' } }, MCP_USAGE);
  if (typeof parsed === 'number') return parsed;
  const { positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'list') {
    return usageError(context, positionals.length === 0 ? 'mcp needs a subcommand' : `unknown mcp subcommand "${positionals.join(' ')}"`, MCP_USAGE);
  }
  let booted;
  try {
    booted = await context.bootKernel({ trustProject: trustProjectFlag(parsed.values['trust-project'], context.env) });
  } catch (error) {
    context.err(messageLines('mewcode: ', error instanceof Error ? error.message : String(error)));
    return 2;
  }
  const { kernel } = booted;
  try {
    if (!kernel.container.isBound(TOKENS.McpServers)) {
      context.out('This build has no MCP plugin.\n');
      return 0;
    }
    const servers = kernel.container.get<McpServers>(TOKENS.McpServers);
    // The servers' processes and timers do not hold the event loop (a run must be able to end while
    // one starts); this command has nothing else to wait on, so it holds the loop itself until every
    // first connect settled, or Node would end it early with nothing printed.
    const holdOpen = setInterval(() => undefined, 60_000);
    try {
      await servers.settled();
    } finally {
      clearInterval(holdOpen);
    }
    const status = servers.status();
    if (status.length === 0) {
      context.out(`No MCP servers configured for ${context.cwd} (mcp_servers: in ~/.mewcode/config.yaml or .mewcode.yaml, .mcp.json, or claude mcp add's ~/.claude.json).\n`);
      return 0;
    }
    for (const server of status) context.out(`${describeServer(server, context.homeDir).join('\n')}\n`);
    const notice = booted.trustNotice();
    if (notice) context.err(messageLines('mewcode: ', notice));
    return status.some((server) => server.state === 'failed') ? 1 : 0;
  } finally {
    await booted.shutdown();
  }
}
