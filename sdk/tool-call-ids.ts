/**
 * Tool call ids as each vendor accepts them. A history keeps the ids the model that made each call
 * gave it (they are saved in sessions), and a converter maps them when it writes a request: after a
 * provider switch one vendor's ids may break another's rules (Kimi's `functions.glob:0` is not a
 * valid Anthropic id; a long gateway id is over OpenAI's 40 characters), and a server that numbers
 * its calls per turn (`call_0` every turn) repeats ids that a vendor requires to be unique.
 *
 * The mapping depends only on the history up to each call, so it is the same for every request of a
 * session (the cached prefix stays byte-identical) and whichever provider wrote the ids before: an
 * id valid for the vendor is sent unchanged, so switching back restores the vendor's own ids.
 */
import { nodeCrypto } from './lazy-builtin.js';

export interface ToolCallIdRule {
  /** Characters the vendor accepts in an id (a one-character class, e.g. /[A-Za-z0-9_-]/). */
  allowed: RegExp;
  maxLength: number;
  /** Every id has exactly this length (Mistral: 9); a derived id is then a hash of that length. */
  exactLength?: number;
}

/** Anthropic: `^[a-zA-Z0-9_-]+$`. */
export const ANTHROPIC_TOOL_CALL_IDS: ToolCallIdRule = { allowed: /[A-Za-z0-9_-]/, maxLength: 64 };
/** Chat Completions: api.openai.com rejects ids over 40 characters; compatible servers take any printable id. */
export const OPENAI_TOOL_CALL_IDS: ToolCallIdRule = { allowed: /[\x21-\x7e]/, maxLength: 40 };
/** Mistral (its API, and vLLM serving its models with the Mistral tokenizer): `^[a-zA-Z0-9]{9}$`. */
export const MISTRAL_TOOL_CALL_IDS: ToolCallIdRule = { allowed: /[A-Za-z0-9]/, maxLength: 9, exactLength: 9 };

const HASH_CHARS = 12;

/**
 * Maps the ids of one request, in history order: `call()` for each tool call as it appears,
 * `result()` for each tool result. A result pairs with the earliest call of its id that has no
 * result yet: the kernel gives every call of a history its own id, but a session saved before it
 * did may hold one answer with two calls `dup1` and then their two results, in call order.
 */
export class ToolCallIdMapper {
  readonly #rule: ToolCallIdRule;
  /** original id → the mapped ids of its calls still waiting for a result, oldest first */
  readonly #waiting = new Map<string, string[]>();
  /** original id → the mapped id of its latest call (for a result whose calls were all answered) */
  readonly #latest = new Map<string, string>();
  /** mapped ids given out so far: never handed out twice */
  readonly #used = new Set<string>();
  #occurrence = 0;

  constructor(rule: ToolCallIdRule) {
    this.#rule = rule;
  }

  call(original: string): string {
    this.#occurrence++;
    let mapped = this.#valid(original) ? original : this.#derived(original, '');
    // A repeated id (a server that numbers calls per turn) or a derived id that happens to equal
    // an earlier one gets the call's position in the history as well: unique and still stable.
    if (this.#used.has(mapped)) mapped = this.#derived(original, `#${this.#occurrence}`);
    this.#used.add(mapped);
    this.#latest.set(original, mapped);
    const waiting = this.#waiting.get(original);
    if (waiting) waiting.push(mapped);
    else this.#waiting.set(original, [mapped]);
    return mapped;
  }

  result(original: string): string {
    const waiting = this.#waiting.get(original)?.shift();
    return waiting ?? this.#latest.get(original) ?? (this.#valid(original) ? original : this.#derived(original, ''));
  }

  #valid(id: string): boolean {
    if (id === '' || id.length > this.#rule.maxLength) return false;
    if (this.#rule.exactLength !== undefined && id.length !== this.#rule.exactLength) return false;
    for (const char of id) if (!this.#rule.allowed.test(char)) return false;
    return true;
  }

  /** The id's allowed characters (others become `_`), cut to fit, then a hash of the original. */
  #derived(original: string, salt: string): string {
    const digest = nodeCrypto().createHash('sha256').update(`${original}${salt}`).digest('hex');
    // A fixed-length rule leaves no room for a readable part: the id is the hash alone.
    if (this.#rule.exactLength !== undefined) return digest.slice(0, this.#rule.exactLength);
    const hash = digest.slice(0, HASH_CHARS);
    const readable = Array.from(original, (char) => (this.#rule.allowed.test(char) ? char : '_')).join('').replace(/_+/g, '_');
    const room = this.#rule.maxLength - HASH_CHARS - 1;
    const head = readable.slice(0, room);
    return head === '' ? `call_${hash}`.slice(0, this.#rule.maxLength) : `${head}_${hash}`;
  }
}
