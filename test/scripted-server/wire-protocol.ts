// What the HTTP layer needs from a vendor wire format; one implementation per vendor.
import type { ScriptedTurn, WireProtocolName } from './types.js';

export interface ResponseContext {
  model: string;
  /** OpenAI `stream_options.include_usage`. */
  includeUsage: boolean;
}

export interface ErrorResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface WireProtocol {
  name: WireProtocolName;
  /** Response headers every answer carries (request ids). */
  requestHeaders(): Record<string, string>;
  /** Serialized SSE frames of a successful streamed turn, without the trailer. */
  streamFrames(turn: ScriptedTurn, ctx: ResponseContext): string[];
  /** Frames sent after a complete stream (OpenAI `[DONE]`). */
  streamTrailer(): string[];
  streamErrorFrame(error: NonNullable<ScriptedTurn['streamError']>): string;
  jsonResponse(turn: ScriptedTurn, ctx: ResponseContext): unknown;
  /** The documented error body for an HTTP status, with an optional message override. */
  errorBody(status: number, message?: string, ctx?: ResponseContext): unknown;
  promptTooLong(): ErrorResponse;
  /** A non-streaming request whose turn scripts a mid-stream error still has to fail. */
  streamErrorAsHttp(error: NonNullable<ScriptedTurn['streamError']>): ErrorResponse;
}

export function sseFrame(event: string | null, data: unknown): string {
  const payload = typeof data === 'string' ? data : JSON.stringify(data);
  return event === null ? `data: ${payload}\n\n` : `event: ${event}\ndata: ${payload}\n\n`;
}
