// Public types of the scripted model server. Other engineers code against these names.

export interface ScriptedToolCall {
  id?: string;
  name: string;
  /** A string is sent verbatim as the raw JSON text (may be malformed on purpose); anything else is JSON.stringify'd. */
  input: unknown | string;
}

export interface ScriptedTurn {
  /** An array gives one delta per element; a string is split into ~12-character deltas. */
  text?: string | string[];
  /** Anthropic: a thinking block before the text. OpenAI: DeepSeek-style `reasoning_content` deltas. */
  thinking?: { text: string; signature: string };
  /** Several entries are parallel calls; arguments stream in 3+ fragments split mid-token. */
  toolCalls?: ScriptedToolCall[];
  /** Defaults: input 100, output 20, cacheWrite 0, cacheRead 0. */
  usage?: { input?: number; output?: number; cacheWrite?: number; cacheRead?: number };
  /** Default 'tool_use'/'tool_calls' with tool calls, else 'end_turn'/'stop'. Known names are mapped across protocols. */
  stopReason?: string;
  /** Wait this long before sending the response headers. */
  delayMs?: number;
  /** Wait this long between SSE events. */
  chunkDelayMs?: number;
  /** Answer with this HTTP status; the vendor's documented error body is used when `body` is omitted. */
  httpError?: { status: number; body?: unknown; headers?: Record<string, string> };
  /** Shortcut for the vendor's documented 400 "prompt too long" / "context_length_exceeded" error. */
  promptTooLong?: boolean;
  /** After `afterEvents` SSE events (default 2) send the vendor's mid-stream error and end the response. */
  streamError?: { afterEvents?: number; type?: string; message?: string };
  /** After `afterEvents` SSE events (default 2) end the body normally: a stream cut short without an error. */
  endEarly?: { afterEvents?: number };
  /** After `afterEvents` SSE events (default 2) destroy the socket: a connection reset mid-body. */
  connectionReset?: { afterEvents?: number };
  /**
   * The model declines. Anthropic: `stop_reason: "refusal"` with these `stop_details`. OpenAI: the
   * explanation streamed as `delta.refusal` (finish_reason "stop" unless `stopReason` says otherwise).
   */
  refusal?: { category?: string | null; explanation?: string | null };
  /**
   * OpenAI protocol: Azure OpenAI's per-choice `content_filter_results`, sent on every content chunk
   * and on the finishing one (e.g. `{ violence: { filtered: true, severity: 'medium' } }`).
   */
  contentFilterResults?: Record<string, { filtered: boolean; severity?: string }>;
}

export type WireProtocolName = 'anthropic' | 'openai';

export interface LoggedRequest {
  protocol: WireProtocolName;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
  rawBody: string;
  receivedAt: number;
}

export interface ScriptedServer {
  /** "http://127.0.0.1:PORT": the Anthropic SDK baseURL; the OpenAI SDK baseURL is `${url}/v1`. */
  url: string;
  /** Every routed request, in order, including those answered with errors. */
  requests: LoggedRequest[];
  push(...turns: ScriptedTurn[]): void;
  remaining(): number;
  close(): Promise<void>;
}

export interface ScriptedServerOptions {
  turns?: ScriptedTurn[];
  port?: number;
  host?: string;
  /** Called synchronously for each logged request (the CLI uses it for its --log file). */
  onRequest?: (request: LoggedRequest) => void;
}
