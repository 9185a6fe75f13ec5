/**
 * The emergency path's last resort (L2: on prompt-too-long, compact once and retry once): a
 * kept tail that alone is too large (one enormous pasted prompt, a long answer, a tool message of
 * many results each under layer 1's limit) cannot be helped by a summary. Its largest texts are
 * saved to files beside layer 1's, largest first, and a preview takes their place until the
 * history is under the automatic threshold; without this every later request of the session
 * failed the same way. Tool call inputs stay as they are (a call must still match its result);
 * the session file keeps every original message before the compaction record.
 */
import { nodeCrypto } from '../../sdk/lazy-builtin.js';
import path from 'node:path';
import { cutBytes } from '../../sdk/text-cuts.js';
import type { Message } from '../../types/messages.js';
import { tokensOfChars } from '../../types/token-estimate.js';
import { PREVIEW_BYTES, previewOf } from './offload.js';
import { saveResult } from './tool-result-files.js';
import { groupDigits } from '../../sdk/plain-intl.js';

/** Texts shorter than this are never moved out: a preview would save little. */
export const SHRINK_MIN_CHARS = 8_000;

export interface ShrinkDeps {
  projectRoot: string;
  sessionId: string;
  charsOf(message: Message): number;
  /** A message as layer 1 sends it: a result it already moved out is a preview, not a candidate. */
  sentVersion(message: Message): Message;
}

interface Candidate {
  message: number;
  /** Content block (user/assistant) or result (tool) position. */
  part: number;
  chars: number;
}

/** The history with its largest texts (from index `from` on) moved out until it is ≤ `budgetTokens`; undefined when nothing could be. */
export function shrinkOversized(messages: readonly Message[], from: number, budgetTokens: number, deps: ShrinkDeps): { messages: Message[]; shrunk: number } | undefined {
  const next = messages.slice();
  let total = next.reduce((sum, message) => sum + tokensOfChars(deps.charsOf(message)), 0);
  if (total <= budgetTokens) return undefined;
  const candidates: Candidate[] = [];
  for (let index = from; index < next.length; index++) {
    const message = deps.sentVersion(next[index] as Message);
    if (message.role === 'tool') message.results.forEach((result, part) => candidates.push({ message: index, part, chars: result.content.length }));
    else message.content.forEach((block, part) => block.type === 'text' && candidates.push({ message: index, part, chars: block.text.length }));
  }
  const largestFirst = candidates.filter((candidate) => candidate.chars >= SHRINK_MIN_CHARS).sort((a, b) => b.chars - a.chars || a.message - b.message);
  const touched = new Set<number>();
  for (const candidate of largestFirst) {
    if (total <= budgetTokens) break;
    const before = tokensOfChars(deps.charsOf(next[candidate.message] as Message));
    next[candidate.message] = replacePart(deps.sentVersion(next[candidate.message] as Message), candidate.part, deps);
    total += tokensOfChars(deps.charsOf(next[candidate.message] as Message)) - before;
    touched.add(candidate.message);
  }
  return touched.size > 0 ? { messages: next, shrunk: touched.size } : undefined;
}

function replacePart(message: Message, part: number, deps: ShrinkDeps): Message {
  if (message.role === 'tool') {
    return { ...message, results: message.results.map((result, position) => (position === part ? { ...result, content: moveOut(result.content, 'This tool result', deps) } : result)) };
  }
  const content = message.content.map((block, position) => (position === part && block.type === 'text' ? { ...block, text: moveOut(block.text, 'This message', deps) } : block));
  return { ...message, content } as Message;
}

/** The text saved to a file and its preview; if the file cannot be written, the text's start and a note (the session file still has it all). */
function moveOut(text: string, what: string, deps: ShrinkDeps): string {
  const name = `message-${nodeCrypto().createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
  try {
    const file = saveResult(deps.projectRoot, deps.sessionId, name, text);
    return previewOf(text, path.relative(deps.projectRoot, file), what);
  } catch (error) {
    const bytes = Buffer.byteLength(text, 'utf8');
    return `${cutBytes(text, PREVIEW_BYTES).text}\n[${what} was ${groupDigits(bytes)} bytes, too large for the context window; only its start is kept here (it could not be saved to a file: ${error instanceof Error ? error.message : String(error)}).]`;
  }
}
