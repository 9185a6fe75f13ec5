/**
 * The transcript a Claude Code hook is pointed at (`transcript_path`), in Claude Code's shape: one
 * JSON object per line, `{"type": "user" | "assistant", "message": {"role", "content"}, …}`, the
 * assistant's tool calls as `tool_use` blocks (Claude's tool names), each result as a user line
 * with a `tool_result` block. MewCode's own session file (`conversation.jsonl`) has another shape
 * (`{"type": "message", "message": {…, "toolCalls"}}`), so a script that reads the transcript
 * with `jq 'select(.type == "assistant") | .message.content'` would find nothing in it.
 *
 * Written only when a hook is about to run (the payload is built then): everything the session's
 * history holds by that moment is in the file, which therefore exists when the hook reads it. The
 * main session's lines come from its history as it is (so a resumed session's earlier messages are
 * there too; a compaction or /clear that replaced the history adds a `compact_boundary` line and
 * the new history, as Claude Code appends rather than rewrites). A sub-agent's come from
 * `messageAppended`, kept until its next hook. Files live beside the session's own, written one
 * name at a time without following a link (sdk/project-state-dir.ts).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { claudeToolName } from '../../sdk/claude-tool-names.js';
import { claudeToolInput } from './claude-tool-inputs.js';
import { prepareSessionDirectory, replaceFile, sessionDirectory, writeFully } from '../../sdk/session-files.js';
import { openProjectStateFile } from '../../sdk/project-state-dir.js';
import type { SessionContext } from '../../types/hooks.js';
import type { Message } from '../../types/messages.js';
import type { KernelApi } from '../../types/plugin.js';

/** Where a session's (or a sub-agent's) Claude-shaped transcript is. */
export function claudeTranscriptPath(projectRoot: string, sessionId: string, agentId = 'main'): string {
  const dir = sessionDirectory(projectRoot, sessionId);
  return agentId === 'main' ? path.join(dir, 'claude-transcript.jsonl') : path.join(dir, 'agents', `${agentId}.claude.jsonl`);
}

/** What one transcript has been given so far. */
interface Written {
  /** Main session: how many of its history's messages are in the file, and the last of them (a replaced history no longer holds it). */
  count: number;
  last?: Message;
  parent: string | null;
}

export class ClaudeTranscripts {
  private readonly written = new Map<string, Written>();
  /** A sub-agent's messages since its transcript was last written. */
  private readonly pending = new Map<string, Message[]>();
  private readonly failed = new Set<string>();

  constructor(private readonly kernel: KernelApi, private readonly warn: (message: string) => void) {}

  /** A sub-agent's message (the main session's are read from its history). */
  appended(message: Message, context: SessionContext): void {
    if (context.agentId === 'main') return;
    const key = `${context.sessionId}/${context.agentId}`;
    const queued = this.pending.get(key);
    if (queued) queued.push(message);
    else this.pending.set(key, [message]);
  }

  /** Brings the transcript of `context` up to date and returns its path. */
  path(context: SessionContext): string {
    const file = claudeTranscriptPath(context.projectRoot, context.sessionId, context.agentId);
    try {
      this.update(file, context);
    } catch (error) {
      // Written whole next time (what this write held is not in the file).
      this.written.delete(`${context.sessionId}/${context.agentId}`);
      // Once per file: every later hook would fail the same way (a link planted on the way, a read-only project).
      if (!this.failed.has(file)) this.warn(`hooks: the transcript for hooks (${file}) could not be written: ${(error as Error).message}; hooks get its path all the same`);
      this.failed.add(file);
    }
    return file;
  }

  private update(file: string, context: SessionContext): void {
    const key = `${context.sessionId}/${context.agentId}`;
    let state = this.written.get(key);
    const fresh = state === undefined;
    state ??= { count: 0, parent: null };
    this.written.set(key, state);
    let messages: readonly Message[];
    const lines: string[] = [];
    if (context.agentId === 'main') {
      const session = this.kernel.session;
      const history = session.sessionId === context.sessionId ? session.conversation.messages : [];
      if (state.count > 0 && history[state.count - 1] !== state.last) {
        // Compaction or /clear replaced the history: Claude Code marks the boundary and goes on.
        lines.push(this.line(state, context, { type: 'system', subtype: 'compact_boundary', content: 'Conversation compacted', level: 'info' }));
        state.count = 0;
      }
      messages = history.slice(state.count);
      state.count = history.length;
      state.last = history.at(-1);
    } else {
      messages = this.pending.get(key) ?? [];
      this.pending.delete(key);
    }
    for (const message of messages) for (const entry of claudeEntries(message, { projectRoot: context.projectRoot, homeDir: context.homeDir })) lines.push(this.line(state, context, entry));
    const text = lines.join('');
    // First write in this process: the whole file (a resumed session's history is all in `messages`).
    if (fresh || !existsSync(file)) {
      prepareSessionDirectory(context.projectRoot, path.dirname(file), 'hook transcripts');
      replaceFile(context.projectRoot, file, text);
      return;
    }
    if (text === '') return;
    const fd = openProjectStateFile(context.projectRoot, file, constants.O_WRONLY | constants.O_APPEND);
    try {
      writeFully(fd, text);
    } finally {
      closeSync(fd);
    }
  }

  private line(state: Written, context: SessionContext, entry: Record<string, unknown>): string {
    const uuid = randomUUID();
    const record = { parentUuid: state.parent, isSidechain: context.agentId !== 'main', sessionId: context.sessionId, cwd: context.projectRoot, ...(context.agentId !== 'main' ? { agentId: context.agentId } : {}), ...entry, uuid, timestamp: new Date().toISOString() };
    state.parent = uuid;
    return `${JSON.stringify(record)}\n`;
  }
}

/**
 * One MewCode message as Claude Code's transcript entries (a tool message: one per result); a
 * call's input in Claude's fields, as the hook payloads give it (paths resolved from `where`).
 */
export function claudeEntries(message: Message, where: { projectRoot: string; homeDir?: string }): Record<string, unknown>[] {
  if (message.role === 'user') {
    const only = message.content.length === 1 && message.content[0]!.type === 'text' ? message.content[0]!.text : undefined;
    const content = only ?? message.content.map((block) => (block.type === 'text' ? block : { type: 'image', source: { type: 'base64', media_type: block.mediaType, data: block.data } }));
    return [{ type: 'user', message: { role: 'user', content } }];
  }
  if (message.role === 'assistant') {
    const blocks: Record<string, unknown>[] = message.content.map((block) => (block.type === 'text' ? { type: 'text', text: block.text } : block.type === 'thinking' ? { type: 'thinking', thinking: block.thinking, signature: block.signature } : { type: 'redacted_thinking', data: block.data }));
    for (const call of message.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: claudeToolName(call.name), input: claudeInput(call.name, parsedInput(call.input), where) });
    return [{ type: 'assistant', message: { role: 'assistant', content: blocks } }];
  }
  return message.results.map((result) => ({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: result.toolCallId, content: result.content, is_error: result.isError }] } }));
}

function claudeInput(tool: string, input: unknown, where: { projectRoot: string; homeDir?: string }): unknown {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? claudeToolInput(tool, input as Record<string, unknown>, where.projectRoot, where.homeDir) : input;
}

/** The call's arguments as an object (the model's raw text when it is not JSON). */
function parsedInput(input: string): unknown {
  try {
    return JSON.parse(input === '' ? '{}' : input);
  } catch {
    return { raw: input };
  }
}
