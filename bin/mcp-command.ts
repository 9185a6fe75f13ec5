/**
 * `mewcode mcp list`: boots the kernel as a run in this directory would (trust, configuration,
 * plugins; the provider replaced by a stand-in, so no key is needed), waits until every MCP
 * server's first connect settled, prints one line per server, and shuts down (every server
 * closed). Exit 0 when every enabled, trusted server connected; 1 when one failed; 2 when the
 * kernel could not boot.
 */
import os from 'node:os';
import { terminal, terminalSafe } from '../config/terminal-safe.js';
import { loadConfig } from '../config/index.js';
import { createWorkspaceTrust } from '../config/trust.js';
import { defaultPlugins } from '../plugins/default-set.js';
import type { McpServers, McpServerStatus } from '../types/mcp.js';
import type { MewcodePlugin } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import type { DoctorOptions } from './cli-args.js';
import { bootWithoutProvider } from './doctor-kernel.js';

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

export async function listMcpServers(options: DoctorOptions, plugins: readonly MewcodePlugin[] = defaultPlugins): Promise<number> {
  const homeDir = os.homedir();
  const env = process.env;
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env, flag: options.trustProject });
  const config = await loadConfig({ cwd: options.cwd, homeDir, trust });
  for (const warning of [...config.warnings]) terminal.err(`mewcode: ${warning}\n`);
  const booted = await bootWithoutProvider({ options, homeDir, env, plugins: [...plugins], config, trust, shown: new Set() });
  for (const warning of booted.warnings) terminal.err(`mewcode: ${warning}\n`);
  if (!booted.kernel) {
    terminal.err(`mewcode: ${booted.error instanceof Error ? booted.error.message : String(booted.error)}\n`);
    return 2;
  }
  const kernel = booted.kernel;
  try {
    if (!kernel.container.isBound(TOKENS.McpServers)) {
      terminal.out('This build has no MCP plugin.\n');
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
      terminal.out(`No MCP servers configured for ${options.cwd} (mcp_servers: in ~/.mewcode/config.yaml or .mewcode.yaml, or .mcp.json).\n`);
      return 0;
    }
    for (const server of status) terminal.out(`${describeServer(server, homeDir).join('\n')}\n`);
    const notice = trust.notice();
    if (notice) terminal.err(`mewcode: ${notice}\n`);
    return status.some((server) => server.state === 'failed') ? 1 : 0;
  } finally {
    await kernel.shutdown();
  }
}
