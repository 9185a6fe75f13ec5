/** How a tool call reads on one line, and the coloured diff of an edit (plain functions, tested). */
import { terminalSafe } from './terminal-safe.js';
import { diffLines } from 'diff';
import type { ToolCall } from '../../../types/messages.js';

/** Input keys that say best what a call is about, in order of preference. */
const SUMMARY_KEYS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt'];
const SUMMARY_WIDTH = 80;

export function parseInput(call: ToolCall): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(call.input || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** `bash(npm test)`, `edit_file(src/a.ts)`: the name and the input's most telling value. */
export function describeCall(call: ToolCall): string {
  const input = parseInput(call);
  const key = SUMMARY_KEYS.find((k) => typeof input[k] === 'string');
  const raw = key ? (input[key] as string) : '';
  const oneLine = terminalSafe(raw).replace(/\s+/g, ' ').trim();
  const shown = oneLine.length > SUMMARY_WIDTH ? `${oneLine.slice(0, SUMMARY_WIDTH - 1)}…` : oneLine;
  const name = terminalSafe(call.name);
  return shown ? `${name}(${shown})` : name;
}

export interface DiffLine {
  sign: '+' | '-' | ' ';
  text: string;
}

/** Lines of the diff an edit or a write made, from the call's own input. Undefined for other tools. */
export function callDiff(call: ToolCall, maxLines: number): { lines: DiffLine[]; more: number } | undefined {
  const input = parseInput(call);
  let lines: DiffLine[];
  if (typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    lines = diffLines(input.old_string, input.new_string).flatMap((part) =>
      splitLines(part.value).map((text): DiffLine => ({ sign: part.added ? '+' : part.removed ? '-' : ' ', text })),
    );
  } else if (typeof input.content === 'string' && (call.name === 'write_file' || typeof input.path === 'string' || typeof input.file_path === 'string')) {
    lines = splitLines(input.content).map((text): DiffLine => ({ sign: '+', text }));
  } else {
    return undefined;
  }
  return { lines: lines.slice(0, maxLines), more: Math.max(0, lines.length - maxLines) };
}

function splitLines(text: string): string[] {
  const lines = terminalSafe(text).split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The first lines of a result, and how many more there are. */
export function headLines(text: string, max: number): { text: string; more: number } {
  const lines = terminalSafe(text).replace(/\n+$/, '').split('\n');
  return { text: lines.slice(0, max).join('\n'), more: Math.max(0, lines.length - max) };
}

/** "850ms", "3.2s", "1m 05s". */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
}
