/** The usage line under a sub-agent's report, shared by the `agent` tool and background tasks. */
import type { SubagentResult } from '../../types/subagents.js';

/** The line after the report: who worked, how long and at what cost. */
export function usageLine(role: string, result: SubagentResult): string {
  const u = result.usage;
  const iterations = `${result.iterations} iteration${result.iterations === 1 ? '' : 's'}`;
  return `[sub-agent ${role} ${result.agentId}: ${iterations}, ${u.input + u.cacheRead + u.cacheWrite} input / ${u.output} output tokens${result.isError ? `, ended: ${result.endReason}` : ''}]`;
}
