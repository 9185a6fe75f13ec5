/**
 * A8: the mode fallback. It only ever allows or asks; denying is the job of the blacklist,
 * the sandbox and the rules. Plan mode keeps the default matrix as a safety net (its write and
 * exec tools are not even offered to the model).
 */
import type { PermissionDecision, PermissionMode } from '../../types/permissions.js';
import type { ToolCategory } from '../../types/tools.js';

const MATRIX: Record<PermissionMode, Record<ToolCategory, PermissionDecision>> = {
  default: { read: 'allow', write: 'ask', exec: 'ask' },
  acceptEdits: { read: 'allow', write: 'allow', exec: 'ask' },
  plan: { read: 'allow', write: 'ask', exec: 'ask' },
  bypassPermissions: { read: 'allow', write: 'allow', exec: 'allow' },
};

export function modeDecision(mode: PermissionMode, category: ToolCategory): PermissionDecision {
  return MATRIX[mode][category];
}

/** The flag that would allow a call the mode asks about, for messages to the user and the model. */
export function modeThatAllows(category: ToolCategory): PermissionMode {
  return category === 'write' ? 'acceptEdits' : 'bypassPermissions';
}
