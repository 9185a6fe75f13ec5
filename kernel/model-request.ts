/**
 * The one way a model request leaves MewCode outside the agent loop's turns (a compaction
 * summary, an MCP server's sampling request): through preModelRequest first, like every turn, so
 * a DLP plugin scrubs it and a model allowlist sees it. A request a tap refused, or one whose tap
 * failed, is never sent.
 */
import type { KernelHooks, ModelRequestContext } from '../types/hooks.js';
import type { ModelRequest, ProviderEvent } from '../types/provider.js';
import { requiredFailure, requiredFailureReason } from './required-failures.js';
import { heldByKernelOnly, madeByKernel } from './fresh-copies.js';
import { lostRequiredPart, requiredPlaces } from './required-parts.js';
import { streamModel } from './sealed-provider.js';
import { plainDataCopy } from './value-snapshots.js';

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

/**
 * preModelRequest on `base`, a request the kernel built or copied and no plugin holds yet, and the
 * request to send. Throws ModelRequestRefused when a tap refused it or failed, while a required
 * plugin's failure is held, or when it lost a part a required plugin added (required-parts.ts).
 * Where `base` holds those parts is read before any tap is handed it (a tap may change it in place
 * and return it), and what is checked is what is sent: a request a tap still holds (it returned
 * the one it was handed) is copied first, so the tap cannot change it between the check and the
 * provider. The copy is made only then, and only while there are parts to check (about 0.2 ms per
 * 100 messages).
 */
export async function requestToSend(hooks: Pick<KernelHooks, 'preModelRequest'>, base: ModelRequest, context: ModelRequestContext): Promise<ModelRequest> {
  refuseWhileRequiredFailed(hooks);
  const places = requiredPlaces(hooks, base);
  const answer = await hooks.preModelRequest.promise(madeByKernel(base), context);
  // A `block` never gets here (the hook throws), so what is left is the request to send.
  const { block: _never, ...fields } = answer;
  if (places.length === 0) return fields;
  const request = heldByKernelOnly(answer) ? fields : (plainDataCopy(fields) as ModelRequest | undefined);
  if (request === undefined) throw new ModelRequestRefused(places[0]!.plugin, `a preModelRequest tap left something in the request that is not plain data, so it cannot be checked for the parts that plugin ${places[0]!.plugin}, which is required, added`);
  const owner = lostRequiredPart(places, request);
  if (owner !== undefined) throw new ModelRequestRefused(owner, `a preModelRequest tap removed from the system prompt or the prompt (or moved out of where it was) a part that plugin ${owner}, which is required, added`);
  return request;
}

/** preModelRequest, then the provider's stream. Throws ModelRequestRefused before anything is sent. */
export async function* sendModelRequest(hooks: Pick<KernelHooks, 'preModelRequest'>, base: ModelRequest, context: ModelRequestContext, signal: AbortSignal): AsyncIterable<ProviderEvent> {
  const request = await requestToSend(hooks, base, context);
  // The provider in the context is a facade whose own stream refuses plugins (sealed-provider.ts).
  yield* streamModel(context.provider, request, signal);
}
