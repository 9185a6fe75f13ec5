/** The services this plugin binds; their contracts live in types/ (TOKENS.PermissionSettings, TOKENS.Approvals). */
import { TOKENS } from '../../types/tokens.js';

export type { PermissionSettings, GrantScope, ApprovalGrant, Approvals } from '../../types/services.js';

export const PERMISSION_SETTINGS = TOKENS.PermissionSettings;
export const APPROVALS = TOKENS.Approvals;
