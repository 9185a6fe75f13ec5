/**
 * A required plugin (the organisation's, or one configuration requires) whose tap fails must not
 * be passed over as an ordinary plugin's is. Its tap on a hook that only observes (the audit log
 * on permissionDecided, a recorder on messageAppended, sessionStart, notification…) would be
 * skipped, and the run would go on unaudited; on a prompt builder (buildSystemPrompt,
 * buildEnvironment) the value would be kept without the organisation's rules. So:
 * - on a prompt builder, its failure refuses the model request (the run stops, naming it);
 * - on any other hook whose failure is skipped, the failure is held for the kernel's hooks, and
 *   from then on no model request is sent and no tool call runs (each refused, naming the
 *   plugin), for the rest of the process: MewCode is restarted once the plugin works again. (A
 *   hold lifted at the end of a run could be lifted by another plugin's run made for that.)
 * The hooks whose failure already fails closed (decisions deny, outputs are withheld, requests
 * refused) need nothing more.
 */
import type { HookName } from '../types/hooks.js';
import type { PluginError } from './plugin-error.js';

const held = new WeakMap<object, PluginError>();

/** Records `error` (the first one stands). */
export function holdRequiredFailure(hooks: object, error: PluginError): void {
  if (!held.has(hooks)) held.set(hooks, error);
}

/** The required plugin's failure that stops requests and tool calls now, if any. */
export function requiredFailure(hooks: object): PluginError | undefined {
  return held.get(hooks);
}

/** What a refused request or call says: who failed where, never what it threw. */
export const requiredFailureReason = (error: PluginError): string => `${error.sharedMessage}; it is a required plugin, so nothing more runs or is sent until MewCode is restarted`;

/** The hooks whose failure, for a required plugin's tap, refuses the request instead of keeping the value. */
export const PROMPT_BUILDERS: ReadonlySet<HookName> = new Set(['buildSystemPrompt', 'buildEnvironment']);
