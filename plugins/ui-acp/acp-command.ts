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
import { capIncomingLines } from './line-cap.js';
import { claimStdio } from './stdio.js';

/** Room under the SDK's cap: its count and this one's may differ by a line end. */
const LINE_CAP_MARGIN = 1024;
/** The SDK's reason when the connection simply closed (the input ended, or close() was called). */
const PLAIN_CLOSE = 'ACP connection closed';

export async function runAcp(context: SubcommandContext): Promise<number> {
  const flags = parseAcpFlags(context.argv, context.env);
  if (!flags.ok) {
    context.err(`mewcode: acp: ${flags.error}\n`);
    return 2;
  }
  const stdio = claimStdio();
  const agent = createAgent({ context, base: flags.base });
  // A line over the SDK's cap would end the connection: dropped and answered instead (line-cap.ts).
  const input = capIncomingLines(stdio.input, { maxBytes: acp.DEFAULT_MAX_MESSAGE_BYTES - LINE_CAP_MARGIN, reply: stdio.writeMessage, warn: context.err });
  const connection = agent.app.connect(acp.ndJsonStream(stdio.output, input));
  // An editor stops its agent with a signal: the sessions' kernels still shut down (transcripts
  // closed, MCP servers stopped) before the process ends.
  let stopped = false;
  const stop = (): void => {
    stopped = true;
    connection.close();
  };
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
  // The editor closing its end (or a stop signal) ends the connection plainly; anything else (a
  // stream that failed) is said, and the exit code shows it.
  const reason: unknown = connection.signal.reason;
  if (!stopped && reason instanceof Error && reason.message !== PLAIN_CLOSE) {
    context.err(`mewcode: acp: the connection to the editor ended: ${reason.message}\n`);
    return 1;
  }
  return 0;
}
