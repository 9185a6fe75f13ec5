/** The protocol-neutral provider contract (P1, P5, P6). */
import type { AssistantContentBlock, Message, ToolCall, Usage } from './messages.js';
import type { ToolDefinition } from './tools.js';

/**
 * The wire protocol a provider speaks. Open: a third-party provider plugin names its own
 * (the built-ins are 'anthropic' and 'openai').
 */
export type ProviderProtocol = string;

/** The system prompt in two parts: only `stable` is cached (P3, K3). */
export interface SystemPrompt {
  stable: string;
  environment: string;
}

export interface ModelRequest {
  system: SystemPrompt;
  messages: readonly Message[];
  tools: readonly ToolDefinition[];
  /** Per-turn reminder (plan mode, hook-injected text); placed after the cache breakpoint. */
  reminder?: string;
}

export type ProviderErrorKind =
  | 'prompt_too_long'
  | 'rate_limit'
  | 'overloaded'
  | 'server'
  | 'authentication'
  | 'bad_request'
  | 'network'
  | 'cancelled'
  | 'unknown';

/** A typed provider failure. `prompt_too_long` is recognised from the vendor's documented body (P6). */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status: number | undefined;
  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
  }
}

export type ProviderEvent =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  /** Tool calls of this response, emitted once, before `done`. */
  | { type: 'tool_calls'; calls: ToolCall[] }
  /** Usage of this response, emitted once, before `done`; absent when the server reported none (unknown, not zero). */
  | { type: 'usage'; usage: Usage }
  /** A retry or other condition the user should see; never stored in history. */
  | { type: 'notice'; message: string }
  /**
   * Normal end. `content` is the assistant content in order, thinking blocks with signatures.
   * `refusal` is set when the model (or the vendor's safety layer) declined to go on.
   */
  | { type: 'done'; content: AssistantContentBlock[]; stopReason: string; refusal?: Refusal }
  | { type: 'error'; error: ProviderError };

/** A declined response: Anthropic's `stop_reason: "refusal"`, OpenAI's `content_filter`. */
export interface Refusal {
  /**
   * Who stopped the answer: the vendor's content filter (`finish_reason: "content_filter"`), or
   * the model itself (unset).
   */
  by?: 'content_filter';
  /** The vendor's policy category, when it names one (Anthropic `stop_details.category`, Azure's filtered categories). */
  category?: string;
  /** Why, in the vendor's words (Anthropic `stop_details.explanation`, OpenAI `refusal` text). */
  explanation?: string;
}

export interface ThinkingSettings {
  enabled: boolean;
  budgetTokens: number;
}

/** One configured provider entry after validation and `${VAR}` expansion (P5). */
export interface ProviderSettings {
  name: string;
  protocol: ProviderProtocol;
  model: string;
  apiKey?: string;
  /**
   * A bearer token sent as `Authorization: Bearer` instead of an API key (ANTHROPIC_AUTH_TOKEN, as
   * Claude Code and the Anthropic SDK accept it: gateways and proxies that issue their own tokens).
   */
  authToken?: string;
  baseUrl?: string;
  contextWindow: number;
  maxTokens: number;
  thinking?: ThinkingSettings;
  /** Retries on 429/529/5xx before giving up (default 4). */
  maxRetries: number;
  /** Base delay of the exponential backoff in ms (default 500). */
  retryBaseDelayMs: number;
  /** false when the model takes no image input (`images: false`); images are then described. */
  images?: boolean;
  /**
   * Chat Completions: send the model's reasoning back as `reasoning_content` (`reasoning_content:`
   * of the provider entry). Unset: on for the models known to require it (DeepSeek's reasoner).
   */
  reasoningContent?: boolean;
  /**
   * Chat Completions: the output limit goes as `max_completion_tokens` (reasoning models reject
   * `max_tokens`) rather than `max_tokens` (`max_completion_tokens:` of the provider entry).
   * Unset: api.openai.com, and Azure reasoning deployments, get it.
   */
  maxCompletionTokens?: boolean;
  /**
   * Longest wait for the response headers and between parts of the body, in ms (`timeout_ms:` of
   * the entry, else API_TIMEOUT_MS); unset: 300,000. Also the SDK's request timeout.
   */
  timeoutMs?: number;
}

export interface Provider {
  /** The configured name (e.g. "anthropic", "work-proxy"). */
  readonly id: string;
  readonly protocol: ProviderProtocol;
  readonly model: string;
  readonly contextWindow: number;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ProviderEvent>;
  /**
   * Get ready for the first request without sending anything (load the vendor SDK, build the
   * client). The loop calls it while it waits for plugins still starting (MCP servers), so that
   * work is not added after the wait. Never throws; a failure shows at the request.
   */
  warm?(): void;
}

/** Contributed by provider plugins under PROVIDER_FACTORY: turns settings into a Provider. */
export interface ProviderFactory {
  readonly protocol: string;
  /** The SDK's standard environment variables, for the "what to set" message. */
  readonly apiKeyEnv: string;
  /** A variable holding a bearer token used when no API key is set (ANTHROPIC_AUTH_TOKEN). */
  readonly authTokenEnv?: string;
  readonly baseUrlEnv: string;
  /** Where requests go without a base URL (`mewcode doctor` says whether a proxy is used for it). */
  readonly defaultBaseUrl?: string;
  readonly defaultContextWindow: number;
  /** Whether this endpoint needs an API key (default: yes). Local compatible servers may not. */
  apiKeyRequired?(baseUrl: string | undefined): boolean;
  create(settings: ProviderSettings): Provider;
}
