// Protocol-neutral preparation of a scripted turn: ids, delta splitting, usage, stop reason.
import { randomBytes } from 'node:crypto';
import type { ScriptedTurn, WireProtocolName } from './types.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const TEXT_DELTA_CHARS = 12;

export function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += BASE62[byte % BASE62.length];
  return out;
}

export interface PlannedToolCall {
  id: string;
  name: string;
  /** The exact JSON text the client must reassemble. */
  json: string;
  fragments: string[];
}

export interface TurnUsage {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

export interface TurnPlan {
  thinking?: { deltas: string[]; signature: string };
  textDeltas?: string[];
  toolCalls: PlannedToolCall[];
  usage: TurnUsage;
  stopReason: string;
  refusal?: { category: string | null; explanation: string | null };
}

/** Splits by code point so a delta never ends inside a surrogate pair. */
export function splitText(text: string, size = TEXT_DELTA_CHARS): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

function textDeltas(text: string | string[]): string[] {
  return Array.isArray(text) ? [...text] : splitText(text);
}

/** Interior [start, end) of the first JSON string literal with at least two characters inside. */
function firstStringInterior(json: string): [number, number] | undefined {
  let start = -1;
  for (let i = 0; i < json.length; i++) {
    const ch = json[i];
    if (start < 0) {
      if (ch === '"') start = i + 1;
    } else if (ch === '\\') {
      i++;
    } else if (ch === '"') {
      if (i - start >= 2) return [start, i];
      start = -1;
    }
  }
  return undefined;
}

/**
 * Cuts raw JSON text into 3+ fragments at arbitrary offsets, one of them inside a string
 * literal, the way real models stream tool arguments: clients must concatenate, not parse pieces.
 */
export function splitJsonFragments(json: string): string[] {
  const length = json.length;
  if (length <= 1) return length === 0 ? [] : [json];
  const cuts = new Set<number>();
  const interior = firstStringInterior(json);
  if (interior) cuts.add(interior[0] + Math.floor((interior[1] - interior[0]) / 2));
  for (const fraction of [0.27, 0.55, 0.81]) cuts.add(Math.max(1, Math.floor(length * fraction)));
  const sorted = [...cuts]
    .map((cut) => (isLowSurrogateAt(json, cut) ? cut + 1 : cut))
    .filter((cut) => cut > 0 && cut < length)
    .sort((a, b) => a - b);
  const fragments: string[] = [];
  let previous = 0;
  for (const cut of sorted) {
    if (cut <= previous) continue;
    fragments.push(json.slice(previous, cut));
    previous = cut;
  }
  fragments.push(json.slice(previous));
  return fragments;
}

function isLowSurrogateAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff;
}

export function toolInputJson(input: unknown): string {
  return typeof input === 'string' ? input : (JSON.stringify(input ?? {}) ?? '{}');
}

const ANTHROPIC_TO_OPENAI_STOP: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};
const OPENAI_TO_ANTHROPIC_STOP: Record<string, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  tool_calls: 'tool_use',
  content_filter: 'refusal',
};

/** One script can drive either protocol: known stop reasons are translated, others pass verbatim. */
export function stopReasonFor(protocol: WireProtocolName, turn: ScriptedTurn): string {
  const hasTools = (turn.toolCalls?.length ?? 0) > 0;
  if (turn.stopReason === undefined) {
    if (turn.refusal) return protocol === 'anthropic' ? 'refusal' : 'stop';
    if (protocol === 'anthropic') return hasTools ? 'tool_use' : 'end_turn';
    return hasTools ? 'tool_calls' : 'stop';
  }
  const table = protocol === 'anthropic' ? OPENAI_TO_ANTHROPIC_STOP : ANTHROPIC_TO_OPENAI_STOP;
  return table[turn.stopReason] ?? turn.stopReason;
}

export function planTurn(protocol: WireProtocolName, turn: ScriptedTurn): TurnPlan {
  const toolIdPrefix = protocol === 'anthropic' ? 'toolu_01' : 'call_';
  const toolIdLength = protocol === 'anthropic' ? 22 : 24;
  return {
    thinking: turn.thinking && {
      deltas: splitText(turn.thinking.text, 24),
      signature: turn.thinking.signature,
    },
    textDeltas: turn.text === undefined ? undefined : textDeltas(turn.text),
    toolCalls: (turn.toolCalls ?? []).map((call) => {
      const json = toolInputJson(call.input);
      return {
        id: call.id ?? toolIdPrefix + randomToken(toolIdLength),
        name: call.name,
        json,
        fragments: splitJsonFragments(json),
      };
    }),
    usage: {
      input: turn.usage?.input ?? 100,
      output: turn.usage?.output ?? 20,
      cacheWrite: turn.usage?.cacheWrite ?? 0,
      cacheRead: turn.usage?.cacheRead ?? 0,
    },
    stopReason: stopReasonFor(protocol, turn),
    ...(turn.refusal ? { refusal: { category: turn.refusal.category ?? null, explanation: turn.refusal.explanation ?? null } } : {}),
  };
}

/** Best effort for non-streaming bodies, which cannot carry malformed JSON. */
export function parseToolInput(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
}
