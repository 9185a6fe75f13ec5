/**
 * The OS command sandbox (issue 8), bound under TOKENS.CommandSandbox by the sandbox plugin.
 * bash uses it now; MCP stdio servers and hook commands will use it too.
 * (Placeholder shape: the sandbox work defines the full interface.)
 */
export interface CommandSandbox {
  /** Whether an OS sandbox can run on this machine. */
  readonly available: boolean;
}
