/**
 * DI tokens. `Symbol.for` so that two copies of this package (an npm plugin's and the bundle's)
 * still agree on identity.
 */
export const TOKENS = {
  /** multi-bound: every tool a plugin contributes */
  Tool: Symbol.for('mewcode/Tool'),
  /** multi-bound: ProviderFactory per protocol */
  ProviderFactory: Symbol.for('mewcode/ProviderFactory'),
  /** the running kernel (KernelApi) */
  Kernel: Symbol.for('mewcode/Kernel'),
  Conversation: Symbol.for('mewcode/Conversation'),
  ToolRegistry: Symbol.for('mewcode/ToolRegistry'),
  ProviderRegistry: Symbol.for('mewcode/ProviderRegistry'),
  Reporter: Symbol.for('mewcode/Reporter'),
  /** the resolved configuration (ResolvedConfig) */
  Config: Symbol.for('mewcode/Config'),
  /** OutputLimits: every tool output cap and the spill directory (SPEC T8) */
  OutputLimits: Symbol.for('mewcode/OutputLimits'),
  /** FileReadTracker: files read this session */
  FileReads: Symbol.for('mewcode/FileReads'),
  /** PermissionSettings: default mode and additional directories (permission-rules) */
  PermissionSettings: Symbol.for('mewcode/PermissionSettings'),
  /** SearchPolicy: files glob and grep must skip (permission-rules) */
  SearchPolicy: Symbol.for('mewcode/SearchPolicy'),
  /** Approvals: granted rules, list / revoke, suggestRule (permission-rules) */
  Approvals: Symbol.for('mewcode/Approvals'),
  /** multi-bound: user interfaces (UserInterface) */
  UserInterface: Symbol.for('mewcode/UserInterface'),
} as const;
