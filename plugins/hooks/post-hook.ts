/**
 * An http hook (MewCode's http action, Claude Code's http handler): the payload POSTed as JSON, or
 * a field-only template (`{{.field.path}}`) as the body. A 2xx answer's body is read like a
 * command hook's stdout (empty = fine; a JSON object decides); anything else is a failure.
 */
import { sharedNodeFetch } from '../../sdk/http/node-fetch.js';
import type { CommandOutcome } from './run-command.js';
import { renderTemplate } from './template.js';
import { monotonicMs } from '../../sdk/monotonic-clock.js';

export async function postHook(action: { url: string; method: string; headers: Record<string, string>; body?: string }, payload: Record<string, unknown>, timeoutMs: number, cancel?: AbortSignal): Promise<CommandOutcome> {
  const started = monotonicMs();
  const elapsed = (): number => Math.round(monotonicMs() - started);
  const body = action.body === undefined ? JSON.stringify(payload) : renderTemplate(action.body, payload);
  const headers: Record<string, string> = { ...action.headers };
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  try {
    const response = await sharedNodeFetch()(action.url, { method: action.method, headers, ...(action.method === 'GET' ? {} : { body }), signal: cancel ? AbortSignal.any([AbortSignal.timeout(timeoutMs), cancel]) : AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    if (response.status < 200 || response.status >= 300) return { code: 1, stdout: '', stderr: `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`, timedOut: false, durationMs: elapsed() };
    // Only a JSON object decides; other 2xx bodies (a proxy's page) are neither decision nor context.
    return { code: 0, stdout: text.trim().startsWith('{') ? text : '', stderr: '', timedOut: false, durationMs: elapsed() };
  } catch (error) {
    const timedOut = (error as Error).name === 'TimeoutError';
    return { code: null, stdout: '', stderr: '', timedOut, ...(timedOut ? {} : { error: (error as Error).message }), durationMs: elapsed() };
  }
}

