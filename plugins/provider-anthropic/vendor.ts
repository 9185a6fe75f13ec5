/**
 * The parts of @anthropic-ai/sdk the Anthropic provider uses, as one module, imported at the first
 * request (sdk.ts): the build puts it in a chunk of its own.
 *
 * The SDK's own `Anthropic` class builds every resource of the API (models, files, skills, beta,
 * organization…) and its module imports them all: 1.0 MB bundled, read and deserialized at every
 * launch. The provider only sends `messages.create`, so its client is the SDK's `BaseAnthropic`
 * (options, auth, headers, retries, fetch, errors) with the `messages` resource: ≈ 0.25 MB.
 */
import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';

export { APIConnectionError, APIError, APIUserAbortError } from '@anthropic-ai/sdk/core/error';

export class Anthropic extends BaseAnthropic {
  readonly messages: Messages = new Messages(this);
}

export default Anthropic;
