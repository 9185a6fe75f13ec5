/**
 * `mewcode acp`: MewCode as an Agent Client Protocol agent on standard input and output, for
 * editors (Zed's agent_servers, JetBrains' acp.json, Neovim's CodeCompanion). Runs until the
 * editor closes the connection, then shuts every session's kernel down.
 */
import { STOP_SIGNALS } from '../../sdk/stop-signals.js';
import * as acp from '@agentclientprotocol/sdk';
import type { SubcommandContext } from '../../types/cli.js';
import { parseAcpFlags } from './acp-flags.js';
import { createAgent } from './acp-agent.js';
import { claimStdio } from './stdio.js';

export async function runAcp(context: SubcommandContext): Promise<number> {
  const flags = parseAcpFlags(context.argv, context.env);
  if (!flags.ok) {
    context.err(`mewcode: acp: ${flags.error}\n`);
    return 2;
  }
  const stdio = claimStdio();
  const agent = createAgent({ context, base: flags.base });
  const connection = agent.app.connect(acp.ndJsonStream(stdio.output, stdio.input));
  // An editor stops its agent with a signal: the sessions' kernels still shut down (transcripts
  // closed, MCP servers stopped) before the process ends.
  const stop = (): void => connection.close();
  // `on`: a second signal while the sessions shut down must not end the process mid-way.
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  try {
    await connection.closed;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
    await agent.closeAll();
    stdio.restore();
    process.stdin.destroy();
  }
  return 0;
}
