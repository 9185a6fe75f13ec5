/**
 * The one way a model request leaves MewCode outside the agent loop's turns (a compaction
 * summary, an MCP server's sampling request): through preModelRequest first, like every turn, so
 * a DLP plugin scrubs it and a model allowlist sees it. A request a tap refused, or one whose tap
 * failed, is never sent.
 */
import type { KernelHooks, ModelRequestContext } from '../types/hooks.js';
import type { ModelRequest, ProviderEvent } from '../types/provider.js';
import { requiredFailure, requiredFailureReason } from './required-failures.js';
import { lostRequiredPart } from './required-parts.js';
import { streamModel } from './sealed-provider.js';

/**
 * A model request that was not sent: a preModelRequest tap refused it (`block`), threw, or
 * answered with something that is not a request. Names the plugin.
 */
export class ModelRequestRefused extends Error {
  constructor(
    readonly pluginName: string,
    reason: string,
  ) {
    super(`The model request was not sent: ${reason}`);
    this.name = 'ModelRequestRefused';
  }
}

/** Throws the refusal of a model request while a required plugin's failure is held (required-failures.ts). */
export function refuseWhileRequiredFailed(hooks: object): void {
  const error = requiredFailure(hooks);
  if (error) throw new ModelRequestRefused(error.pluginName, requiredFailureReason(error));
}

/** Throws the refusal of a request that lost a part a required plugin added (required-parts.ts). */
export function refuseLostRequiredPart(hooks: object, base: ModelRequest, sent: ModelRequest): void {
  const owner = lostRequiredPart(hooks, base, sent);
  if (owner !== undefined) throw new ModelRequestRefused(owner, `a preModelRequest tap removed from the system prompt or the prompt a part that plugin ${owner}, which is required, added`);
}

/** preModelRequest, then the provider's stream. Throws ModelRequestRefused before anything is sent. */
export async function* sendModelRequest(hooks: Pick<KernelHooks, 'preModelRequest'>, base: ModelRequest, context: ModelRequestContext, signal: AbortSignal): AsyncIterable<ProviderEvent> {
  refuseWhileRequiredFailed(hooks);
  // A `block` never gets here (the hook throws), so what is left is the request to send.
  const { block: _never, ...request } = await hooks.preModelRequest.promise(base, context);
  refuseLostRequiredPart(hooks, base, request);
  // The provider in the context is a facade whose own stream refuses plugins (sealed-provider.ts).
  yield* streamModel(context.provider, request, signal);
}
