/**
 * How a plugin's failures reach the user: a failing tap runs on every call (each tool call, each
 * request), and the same warning each time would bury the conversation, so each distinct warning
 * is said once per kernel. Under `--debug` / `MEWCODE_DEBUG=plugins` (plugin-debug.ts) it carries
 * the stack of what the plugin threw, so its author sees the file and line; never otherwise. A
 * tool's throw (ToolThrew) is said only then: the model already has it as the call's result.
 * A warning may come with a shared text: what notification hooks are sent (they may forward it
 * anywhere: a chat, a webhook), which says who failed where without quoting what the plugin threw
 * or returned; the full text is for the user's own screen.
 */
import { causeStack } from './plugin-debug.js';
import { ToolThrew } from './plugin-error.js';

/** Distinct warnings remembered; past this (a message that changes every call) they are said again. */
const REMEMBERED = 500;

export class PluginFailureLog {
  private readonly said = new Set<string>();

  constructor(
    private readonly warn: (message: string, shared?: string) => void,
    private readonly debug: boolean,
  ) {}

  /** `message` once; with the stack of `error` (or of its cause) under debug; `shared` for notification hooks. */
  report(message: string, error?: unknown, shared?: string): void {
    if (error instanceof ToolThrew && !this.debug) return;
    if (this.said.has(message)) return;
    if (this.said.size < REMEMBERED) this.said.add(message);
    this.warn(this.withStack(message, error), shared);
  }

  /** The message with the stack appended under debug (for a failure that ends the run). */
  withStack(message: string, error: unknown): string {
    const stack = this.debug && error !== undefined ? causeStack(error) : undefined;
    return stack ? `${message}\n${stack}` : message;
  }
}
