/**
 * Workspace trust (issue 8), bound under TOKENS.WorkspaceTrust. The plugin loader uses it now;
 * MCP and user hooks will use it too. (Placeholder shape: the trust work defines the full interface.)
 */
export interface WorkspaceTrust {
  /** Whether the project's settings that run code or send data may take effect. */
  isTrusted(): boolean;
}
