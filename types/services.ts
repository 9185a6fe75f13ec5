/** Service interfaces the kernel binds under the tokens in tokens.ts. */
import type { Message } from './messages.js';
import type { ToolDefinition, Tool } from './tools.js';
import type { Provider, ProviderSettings } from './provider.js';

/** The session's history. Appends notify `messageAppended` before they resolve. */
export interface Conversation {
  readonly messages: readonly Message[];
  append(message: Message): Promise<void>;
  /** Replace the whole history (compaction, resume). Listeners see a `replaced` notification. */
  replace(messages: Message[]): Promise<void>;
  lastRole(): Message['role'] | undefined;
}

export interface ToolRegistry {
  register(tool: Tool): void;
  unregister(name: string): boolean;
  get(name: string): Tool | undefined;
  list(): readonly Tool[];
  /** Definitions in registration order (K3); `readOnlyOnly` for plan mode. */
  definitions(options?: { readOnlyOnly?: boolean }): ToolDefinition[];
}

export interface ProviderRegistry {
  /** The provider that serves the next request. */
  active(): Provider;
  /** All configured providers, by name. */
  configured(): readonly ProviderSettings[];
  /** Switch the active provider by configured name (between runs). */
  switchTo(name: string): Provider;
}

/** Where warnings and notices go: the UI decides how to show them (stderr in headless mode). */
export interface Reporter {
  warn(message: string): void;
  notice(message: string): void;
  debug(message: string): void;
}
