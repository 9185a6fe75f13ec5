/** Per-turn reminder text (L1, L2): plan-mode reminder plus hook-injected prompts, taken once. */
import type { PermissionMode } from '../types/permissions.js';

export const PLAN_REMINDER_INTERVAL = 4;

export const PLAN_REMINDER_FULL = [
  '<system-reminder>',
  'Plan mode is active. Only read-only tools are available and nothing may be changed yet:',
  'do not edit files, run commands with side effects, or change configuration.',
  'Investigate the code with the read-only tools, then answer with a concrete, step-by-step plan',
  '(files to change, what to change in each, how to verify it) for the user to approve.',
  '</system-reminder>',
].join('\n');

export const PLAN_REMINDER_SHORT = '<system-reminder>Plan mode is still active: read-only tools only; finish with a plan.</system-reminder>';

export function planReminder(mode: PermissionMode, iteration: number): string | undefined {
  if (mode !== 'plan') return undefined;
  return (iteration - 1) % PLAN_REMINDER_INTERVAL === 0 ? PLAN_REMINDER_FULL : PLAN_REMINDER_SHORT;
}

export function buildReminder(mode: PermissionMode, iteration: number, injected: readonly string[]): string | undefined {
  const parts = [planReminder(mode, iteration), ...injected].filter((p): p is string => !!p && p.length > 0);
  return parts.length > 0 ? parts.join('\n\n') : undefined;
}
