/** The MCP client's status service, bound under TOKENS.McpServers by the mcp plugin. */

export type McpServerState = 'connecting' | 'connected' | 'failed' | 'disabled' | 'untrusted' | 'skipped' | 'closed';

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  /** `stdio`, `http` (Streamable HTTP), or `sse` (legacy, also after a fallback from http). */
  transport: 'stdio' | 'http' | 'sse' | 'unknown';
  /** Where the entry was written (`file:line:col`). */
  source: string;
  toolCount: number;
  /** `${VAR}` references of the entry that were not set (they became empty strings). */
  undefinedVariables: readonly string[];
  /** Why it failed, or why it is not started. */
  lastError?: string;
  /** The server's log file (stderr, connects, its log messages). */
  logPath?: string;
  /** The stdio server's process id while it runs. */
  pid?: number;
}

export interface McpServers {
  status(): McpServerStatus[];
  /** Resolves once every server's first connect settled (connected or failed). */
  settled(): Promise<void>;
}
