/**
 * Claude Code's spelling of the permission mode a run is in, for what MewCode tells Claude
 * Code's tools (hook payloads' `permission_mode`, the stream's init message). MewCode's modes are
 * spelled as Claude Code's already; `--permission-mode dontAsk` is not one of them but the
 * default mode with every question answered no (CliOptions.dontAsk), so a run in default mode
 * under it is Claude Code's `dontAsk`. A mode switched to later is that mode, as in Claude Code,
 * where leaving dontAsk ends it (MewCode still answers any question no).
 */
import { PERMISSION_MODES, type PermissionMode } from '../types/permissions.js';

export type ClaudePermissionMode = PermissionMode | 'dontAsk';

export function claudePermissionMode(mode: PermissionMode, dontAsk: boolean): ClaudePermissionMode {
  return dontAsk && mode === 'default' ? 'dontAsk' : mode;
}

/** The MewCode mode a Claude Code spelling names (dontAsk runs in default mode); undefined for another value. */
export function fromClaudePermissionMode(value: unknown): PermissionMode | undefined {
  if (value === 'dontAsk') return 'default';
  return PERMISSION_MODES.find((mode) => mode === value);
}
