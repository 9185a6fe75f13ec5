/** The `mcp:` section's settings, apart from the plugin so the runtime names them without importing it. */

export type ToolSearchMode = 'auto' | 'always' | 'never';

export interface McpSettings {
  startupWaitMs: number;
  toolSearch: ToolSearchMode;
  toolSearchShare: number;
  sampling: 'deny' | 'allow';
}
