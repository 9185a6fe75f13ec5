/**
 * A message for the user as one line on standard error, as every front end without a view of
 * its own says it (headless runs, the programmatic API's `stderr`, an editor that takes no notices).
 */
import type { NotificationPayload } from './hooks.js';

export function noticeLine(payload: Pick<NotificationPayload, 'kind' | 'message'>): string {
  return payload.kind === 'warning' ? `mewcode: warning: ${payload.message}\n` : `mewcode: ${payload.message}\n`;
}
