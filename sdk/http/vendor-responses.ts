/**
 * A `fetch` wrapper for the vendor SDKs that makes what a server really sent readable by them.
 *
 * Error bodies: the SDKs read only the documented shape (`{"error":{"message":…}}`) and drop the
 * rest, so a flat body (vLLM before 0.10.1 and Mistral: `{"object":"error","message":…}`), an array
 * (Gemini: `[{"error":{…}}]`), `{"error":"text"}` or `{"detail":…}` became "400 status code (no
 * body)". They are rewritten into the documented shape here, where the body is still at hand. A
 * page that is not JSON (a proxy's or CDN's HTML) becomes a short excerpt (its title or first line
 * of text), marked so the classifier does not blame the API key for a proxy's 403.
 *
 * A 200 that is not an event stream: the SDKs parse it as one, find no events, and the request
 * looks like a stream cut short (retried, then a misleading message). A complete JSON answer (a
 * gateway that ignores `stream: true`) is turned into the one-event stream it amounts to; anything
 * else (an HTML login page) fails at once, saying what the server sent.
 */
import { FetchResponse } from './fetch-response.js';
import { WebHeaders } from './web-headers.js';

/** Set on the rewritten error object when the server's body was not JSON (`html` or `text`). */
export const NON_JSON_BODY_FIELD = 'mewcode_body_kind';

export type VendorProtocol = 'openai' | 'anthropic';

/** Thrown (wrapped by the SDK as a connection error) for a 200 the SDK cannot read as a stream. */
export class NotAnEventStreamError extends Error {
  readonly code = 'ERR_MEWCODE_NOT_EVENT_STREAM';
}

const EXCERPT_CHARS = 300;

export function readableVendorResponses(fetchImpl: typeof fetch, protocol: VendorProtocol): typeof fetch {
  const wrapped = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const response = (await fetchImpl(input, init)) as unknown as FetchResponse;
    if (response.status >= 400) return rebuilt(response, JSON.stringify(errorBody(await response.text(), response.headers.get('content-type'), protocol)) ?? '', 'application/json');
    if (response.status < 200 || response.status > 299 || !wantsStream(init)) return response as unknown as Response;
    const type = response.headers.get('content-type') ?? '';
    if (/event-stream/i.test(type)) return response as unknown as Response;
    const text = await response.text();
    // A server that sends SSE under another content type (text/plain, none): still a stream.
    if (/^\s*(data|event|:|id|retry)\b/.test(text)) return rebuilt(response, text, 'text/event-stream');
    const stream = protocol === 'openai' ? openAIAnswerAsStream(text) : anthropicAnswerAsStream(text);
    if (stream !== undefined) return rebuilt(response, stream, 'text/event-stream');
    throw new NotAnEventStreamError(`the server answered 200 with ${type === '' ? 'no content type' : type} instead of an event stream: ${excerpt(text, type)}. Check base_url: a login page or proxy may be in front of the API`);
  };
  return wrapped as typeof fetch;
}

function wantsStream(init: RequestInit | undefined): boolean {
  return typeof init?.body === 'string' && /"stream"\s*:\s*true/.test(init.body);
}

function rebuilt(response: FetchResponse, text: string, contentType: string): Response {
  const headers = new WebHeaders(response.headers);
  headers.set('content-type', contentType);
  headers.delete('content-length');
  headers.delete('content-encoding');
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new FetchResponse({ status: response.status, statusText: response.statusText, headers, url: response.url, redirected: response.redirected }, body) as unknown as Response;
}

interface VendorError {
  message: string;
  type?: unknown;
  code?: unknown;
  param?: unknown;
  [NON_JSON_BODY_FIELD]?: 'html' | 'text';
}

/** The body in the documented shape of `protocol`, whatever shape the server used. */
export function errorBody(text: string, contentType: string | null, protocol: VendorProtocol): unknown {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const error = parsed === undefined ? nonJsonError(text, contentType ?? '') : vendorError(parsed);
  if (error === undefined) return parsed; // already documented, or nothing to say
  return protocol === 'openai' ? { error } : { type: 'error', error: { type: typeof error.type === 'string' ? error.type : 'api_error', ...error } };
}

function nonJsonError(text: string, contentType: string): VendorError | undefined {
  if (text.trim() === '') return undefined;
  const html = isHtml(text, contentType);
  return { message: excerpt(text, contentType), [NON_JSON_BODY_FIELD]: html ? 'html' : 'text' };
}

/** undefined when the body already has the documented shape (or is nothing the SDK could use). */
function vendorError(parsed: unknown): VendorError | undefined {
  if (Array.isArray(parsed)) return parsed.length > 0 ? (vendorError(parsed[0]) ?? documented(parsed[0])) : undefined;
  if (typeof parsed !== 'object' || parsed === null) return typeof parsed === 'string' && parsed !== '' ? { message: parsed } : undefined;
  const body = parsed as Record<string, unknown>;
  if (typeof body['error'] === 'object' && body['error'] !== null) {
    const inner = body['error'] as Record<string, unknown>;
    return typeof inner['message'] === 'string' ? undefined : { message: JSON.stringify(inner).slice(0, EXCERPT_CHARS) };
  }
  if (typeof body['error'] === 'string') return { message: body['error'], type: body['type'], code: body['code'] };
  const message = [body['message'], body['detail'], body['msg']].find((m) => typeof m === 'string' && m !== '');
  if (typeof message === 'string') return { message, type: body['type'], code: body['code'], param: body['param'] };
  if (body['detail'] !== undefined) return { message: JSON.stringify(body['detail']).slice(0, EXCERPT_CHARS) };
  return undefined;
}

/** An array's first entry that is already `{"error":{"message":…}}` (Gemini): its inner error. */
function documented(entry: unknown): VendorError | undefined {
  const inner = (entry as { error?: { message?: unknown; status?: unknown; code?: unknown } } | null)?.error;
  return typeof inner?.message === 'string' ? { message: inner.message, type: inner.status, code: inner.code } : undefined;
}

function isHtml(text: string, contentType: string): boolean {
  return /html/i.test(contentType) || /^\s*(<!doctype html|<html|<head|<body)/i.test(text);
}

/** A page's title, else its first line of text, cut short: never the whole page. */
export function excerpt(text: string, contentType: string): string {
  let line: string;
  if (isHtml(text, contentType)) {
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1];
    const visible = (title ?? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, '\n'))
      .split('\n')
      .map((l) => decodeEntities(l).replace(/\s+/g, ' ').trim())
      .find((l) => l !== '');
    line = `HTML page "${visible ?? ''}"`;
  } else {
    line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
  }
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS)}…` : line;
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;|&apos;/g, "'").replace(/&nbsp;/g, ' ');
}

/** A complete Chat Completions answer as the stream it amounts to; undefined if it is not one. */
function openAIAnswerAsStream(text: string): string | undefined {
  let answer: { choices?: { message?: Record<string, unknown>; finish_reason?: string | null }[]; usage?: unknown; id?: unknown; model?: unknown } | undefined;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return undefined;
  }
  const choice = answer?.choices?.[0];
  if (!choice || typeof choice.message !== 'object' || choice.message === null) return undefined;
  const { role: _role, tool_calls: toolCalls, ...message } = choice.message as { role?: unknown; tool_calls?: unknown } & Record<string, unknown>;
  const calls = Array.isArray(toolCalls) ? toolCalls.map((call: Record<string, unknown>, index: number) => ({ index, ...call })) : undefined;
  const delta = { role: 'assistant', ...message, ...(calls ? { tool_calls: calls } : {}) };
  const base = { id: answer!.id ?? 'chatcmpl', object: 'chat.completion.chunk', created: 0, model: answer!.model ?? '' };
  const chunk = { ...base, choices: [{ index: 0, delta, finish_reason: choice.finish_reason ?? 'stop' }], ...(answer!.usage ? { usage: answer!.usage } : {}) };
  return `data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`;
}

/** A complete Messages answer (`type: "message"`) as its event stream; undefined if it is not one. */
function anthropicAnswerAsStream(text: string): string | undefined {
  let answer: { type?: unknown; content?: unknown; usage?: Record<string, unknown>; stop_reason?: unknown } & Record<string, unknown>;
  try {
    answer = JSON.parse(text) as typeof answer;
  } catch {
    return undefined;
  }
  if (answer?.type !== 'message' || !Array.isArray(answer.content)) return undefined;
  const events: Record<string, unknown>[] = [{ type: 'message_start', message: { ...answer, content: [], stop_reason: null } }];
  (answer.content as Record<string, unknown>[]).forEach((block, index) => {
    if (block['type'] === 'text') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: block['text'] } });
    } else if (block['type'] === 'tool_use') {
      events.push({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input'] ?? {}) } });
    } else if (block['type'] === 'thinking') {
      events.push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: block['thinking'] } });
      events.push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block['signature'] } });
    } else {
      events.push({ type: 'content_block_start', index, content_block: block });
    }
    events.push({ type: 'content_block_stop', index });
  });
  events.push({ type: 'message_delta', delta: { stop_reason: answer.stop_reason ?? 'end_turn', stop_sequence: null }, usage: { output_tokens: answer.usage?.['output_tokens'] ?? 0 } });
  events.push({ type: 'message_stop' });
  return events.map((event) => `event: ${String(event['type'])}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}
