/** The session history. Every append is announced on `messageAppended` before it resolves (K4). */
import type { AssistantMessage, Message } from '../types/messages.js';
import type { Conversation } from '../types/services.js';
import type { KernelHooks } from '../types/hooks.js';

export class ConversationImpl implements Conversation {
  private history: Message[] = [];

  constructor(
    private readonly hooks: KernelHooks,
    private readonly sessionId: () => string,
  ) {}

  get messages(): readonly Message[] {
    return this.history;
  }

  async append(message: Message): Promise<void> {
    this.history.push(message);
    await this.hooks.messageAppended.promise(message, { sessionId: this.sessionId(), index: this.history.length - 1 });
  }

  async replace(messages: Message[]): Promise<void> {
    this.history = [...messages];
  }

  lastRole(): Message['role'] | undefined {
    return this.history.at(-1)?.role;
  }

  /**
   * L5: every exit path leaves an assistant message last, so the next request is valid. Tool
   * calls left without results (a fault between the calls and their results) are answered first:
   * both vendors reject a tool call that has no result.
   */
  async ensureAssistantTail(fallbackText: string): Promise<void> {
    const last = this.history.at(-1);
    if (last?.role === 'assistant' && last.toolCalls.length === 0) return;
    if (last?.role === 'assistant') {
      const results = last.toolCalls.map((call) => ({ toolCallId: call.id, isError: true, content: `The run stopped before this call ran: ${fallbackText}` }));
      await this.append({ role: 'tool', results });
    }
    const message: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: fallbackText }], toolCalls: [] };
    await this.append(message);
  }
}
