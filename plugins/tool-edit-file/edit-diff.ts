/**
 * The short unified diff an edit returns (T4), so the model sees the result without another
 * read. Only the changed regions are diffed: matches whose context overlaps form a group, each
 * group's lines (plus context) are cut out of the old text, the group's replacements are applied
 * to that excerpt, and jsdiff diffs the two excerpts. The cost follows the size of the change,
 * not of the file, and groups past the size cap are not diffed at all.
 */
import { structuredPatch } from 'diff';
import type { LineIndex } from './text-index.js';

export interface DiffLimits {
  /** Unchanged lines around each change. */
  context: number;
  /** Diff lines (hunk headers included) before the diff is cut. */
  maxLines: number;
  /** Characters of one diff line before it is cut. */
  lineMaxChars: number;
}

export interface EditDiff {
  text: string;
  /** False when the cap cut the diff. */
  complete: boolean;
  /** Line of the edited file where the part not shown begins, for the "read it" hint. */
  resumeLine?: number;
}

interface Change {
  index: number;
  startLine: number;
  endLine: number;
}

export function editDiff(old: LineIndex, matches: number[], oldString: string, newString: string, limits: DiffLimits, cutLine: (line: string) => string): EditDiff {
  const changes: Change[] = matches.map((index) => ({
    index,
    startLine: old.lineOf(index),
    endLine: old.lineOf(index + Math.max(0, oldString.length - 1)),
  }));
  const groups = groupChanges(changes, limits.context);
  const lineShift = newlines(newString) - newlines(oldString);
  const out: string[] = [];
  let shiftBefore = 0;
  for (const group of groups) {
    const first = group[0]!;
    const last = group[group.length - 1]!;
    const from = Math.max(1, first.startLine - limits.context);
    const to = Math.min(old.lineCount, last.endLine + limits.context);
    const start = old.startOf(from);
    const oldExcerpt = old.text.slice(start, old.endOf(to));
    const newExcerpt = replaceAt(oldExcerpt, group.map((c) => c.index - start), oldString.length, newString);
    const hunks = diffHunks(oldExcerpt, newExcerpt, limits);
    const lines: string[] = [];
    for (const hunk of hunks) {
      lines.push(`@@ -${hunk.oldStart + from - 1},${hunk.oldLines} +${hunk.newStart + from - 1 + shiftBefore},${hunk.newLines} @@`);
      for (const line of hunk.lines) lines.push(cutLine(line.endsWith('\r') ? line.slice(0, -1) : line));
    }
    if (out.length + lines.length > limits.maxLines) {
      // A first group too big on its own is shown in part; later groups are shown whole or not at all.
      if (out.length === 0) out.push(...lines.slice(0, limits.maxLines));
      return { text: out.join('\n'), complete: false, resumeLine: from + shiftBefore };
    }
    out.push(...lines);
    shiftBefore += lineShift * group.length;
  }
  return { text: out.join('\n'), complete: true };
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/**
 * Myers' diff costs O((N+M)·D); a huge rewrite of one region (thousands of lines, all different)
 * would spend seconds to produce a diff that the cap cuts anyway. Past a size, the region is shown
 * as removed-then-added, which is correct, only not minimal.
 */
const MYERS_MAX_LINES = 2000;

function diffHunks(oldExcerpt: string, newExcerpt: string, limits: DiffLimits): Hunk[] {
  const oldLines = splitLines(oldExcerpt);
  const newLines = splitLines(newExcerpt);
  if (oldLines.length + newLines.length <= MYERS_MAX_LINES) {
    return structuredPatch('a', 'b', oldExcerpt, newExcerpt, undefined, undefined, { context: limits.context }).hunks;
  }
  return [{ oldStart: 1, oldLines: oldLines.length, newStart: 1, newLines: newLines.length, lines: [...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)] }];
}

function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Changes whose context windows touch or overlap are one group (one or more hunks). */
function groupChanges(changes: Change[], context: number): Change[][] {
  const groups: Change[][] = [];
  for (const change of changes) {
    const current = groups[groups.length - 1];
    const previous = current?.[current.length - 1];
    if (current && previous && change.startLine - context <= previous.endLine + context + 1) current.push(change);
    else groups.push([change]);
  }
  return groups;
}

/** Replace `length` characters at each index (ascending) with `replacement`; no `$` patterns. */
export function replaceAt(text: string, indices: number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let cursor = 0;
  for (const index of indices) {
    parts.push(text.slice(cursor, index), replacement);
    cursor = index + length;
  }
  parts.push(text.slice(cursor));
  return parts.join('');
}

function newlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
