/**
 * What MewCode answers when a server asks something of it:
 * - `roots/list`: the project root and the additional directories, as file:// URIs (the
 *   `roots` capability is advertised; they do not change during a run);
 * - `sampling/createMessage`: sent (through preModelRequest, like every request) to the active provider only when the user allowed it
 *   (`mcp.sampling: allow` in the user's own configuration; a project cannot allow it); else an
 *   error the server can report. Only then is the `sampling` capability advertised;
 * - `elicitation/create`: declined while no interactive UI can present the form (headless).
 */
import { pathToFileURL } from 'node:url';
import type { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import type { Message } from '../../types/messages.js';
import type { ModelRequest, Provider, ProviderEvent } from '../../types/provider.js';
import type { McpSdk } from './sdk-loader.js';

export interface ClientHandlerDeps {
  version: string;
  roots(): readonly string[];
  samplingAllowed: boolean;
  provider(): Provider | undefined;
  /** Sends a model request through preModelRequest (the kernel's sendModelRequest): a DLP or model-allowlist plugin sees sampling too. */
  send: SendRequest;
  /** Whether an interactive UI could present an elicitation form (none in this build). */
  canElicit(): boolean;
}

/** Where a handled request is noted for the server's status (a connection); named here, not imported, to keep the two modules apart. */
export interface RequestNotes {
  noteRequest(line: string): void;
}

export class ClientHandlers {
  constructor(private readonly deps: ClientHandlerDeps) {}

  createClient(sdk: McpSdk, connection: RequestNotes): SdkClient {
    const capabilities = {
      // No listChanged: the roots (project root, additional directories) do not change in a run.
      roots: {},
      elicitation: { form: {} },
      ...(this.deps.samplingAllowed ? { sampling: {} } : {}),
    };
    const client = new sdk.Client({ name: 'mewcode', version: this.deps.version }, { capabilities });
    client.setRequestHandler(sdk.ListRootsRequestSchema, () => ({
      roots: this.deps.roots().map((root) => ({ uri: pathToFileURL(root).href, name: root })),
    }));
    client.setRequestHandler(sdk.ElicitRequestSchema, () => {
      connection.noteRequest('elicitation/create declined: no interactive UI can show the form in this run');
      return { action: 'decline' as const };
    });
    // The SDK refuses a handler for a capability that is not advertised: without the user's
    // allow, a server's sampling request is answered by the SDK as "method not found".
    if (!this.deps.samplingAllowed) return client;
    client.setRequestHandler(sdk.CreateMessageRequestSchema, async (request, extra) => {
      const provider = this.deps.provider();
      if (!provider) throw new sdk.McpError(sdk.ErrorCode.InternalError, 'no model provider is available');
      connection.noteRequest(`sampling/createMessage sent to ${provider.id} (${provider.model})`);
      const params = request.params as { messages: { role: 'user' | 'assistant'; content: unknown }[]; systemPrompt?: string; maxTokens?: number };
      const text = await sample((sampled, signal) => this.deps.send(sampled, provider, signal), params, extra.signal);
      return { role: 'assistant' as const, content: { type: 'text' as const, text }, model: provider.model, stopReason: 'endTurn' };
    });
    return client;
  }
}

function blocksOf(content: unknown): { type?: string; text?: string; data?: string; mimeType?: string }[] {
  if (Array.isArray(content)) return content as never;
  return typeof content === 'object' && content !== null ? [content as never] : [];
}

export type SendRequest = (request: ModelRequest, provider: Provider, signal: AbortSignal) => AsyncIterable<ProviderEvent>;

async function sample(send: (request: ModelRequest, signal: AbortSignal) => AsyncIterable<ProviderEvent>, params: { messages: { role: 'user' | 'assistant'; content: unknown }[]; systemPrompt?: string }, signal: AbortSignal): Promise<string> {
  const messages: Message[] = params.messages.map((message) => {
    const blocks = blocksOf(message.content);
    if (message.role === 'assistant') {
      return { role: 'assistant', content: [{ type: 'text', text: blocks.map((b) => b.text ?? '').join('') }], toolCalls: [] };
    }
    return {
      role: 'user',
      content: blocks.map((b) =>
        b.type === 'image' && b.data ? { type: 'image' as const, mediaType: b.mimeType ?? 'image/png', data: b.data } : { type: 'text' as const, text: b.text ?? `[${b.type ?? 'content'} not passed on]` },
      ),
    };
  });
  let text = '';
  for await (const event of send({ system: { stable: params.systemPrompt ?? '', environment: '' }, messages, tools: [] }, signal)) {
    if (event.type === 'text') text += event.text;
    else if (event.type === 'error') throw event.error;
  }
  return text;
}
