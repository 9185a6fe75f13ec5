/**
 * When old_string matches nothing, the region of the file it most likely meant, so the error can
 * show the real text (T4: the error tells the model how to fix the call). Linear in the file:
 *  1. Lines equal to a line of old_string once whitespace is normalised vote for the window start
 *     they imply (file line i matching needle line j votes for i - j), weighted by length so that
 *     a lone `}` counts for little. This finds indentation, tab/space and trailing-space slips.
 *  2. Without any such line, words: each window of old_string's height scores the words its lines
 *     share with the aligned lines of old_string (for a huge file, simply the words it shares with
 *     old_string, by a running sum). This finds lines where a word was changed.
 */
import type { LineIndex } from './text-index.js';

export interface Region {
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Every line of old_string is in the region, differing only in whitespace. */
  whitespaceOnly: boolean;
}

/** Only the start of very long lines is scored: a minified line should not dominate the cost. */
const SCORED_CHARS = 2000;
/** Line comparisons allowed for the aligned word score (file lines × old_string lines). */
const ALIGNED_BUDGET = 2_000_000;

export function closestRegion(index: LineIndex, needle: string): Region | undefined {
  const needleLines = needle.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  while (needleLines.length > 1 && needleLines[needleLines.length - 1]!.trim() === '') needleLines.pop();
  while (needleLines.length > 1 && needleLines[0]!.trim() === '') needleLines.shift();
  const height = needleLines.length;
  const start = voteByLines(index, needleLines) ?? bestWindowByWords(index, needleLines);
  if (start === undefined) return undefined;
  const startLine = Math.max(1, start);
  const endLine = Math.min(index.lineCount, start + height - 1);
  const whitespaceOnly =
    start >= 1 && start + height - 1 <= index.lineCount && needleLines.every((line, j) => normalise(line) === normalise(index.lineText(start + j)));
  return { startLine, endLine, whitespaceOnly };
}

function voteByLines(index: LineIndex, needleLines: string[]): number | undefined {
  const positions = new Map<string, number[]>();
  needleLines.forEach((line, j) => {
    const key = normalise(line);
    if (key !== '') positions.set(key, [...(positions.get(key) ?? []), j]);
  });
  const votes = new Map<number, number>();
  for (let i = 1; i <= index.lineCount; i++) {
    const key = normalise(index.lineText(i).slice(0, SCORED_CHARS));
    const js = positions.get(key);
    if (js) for (const j of js) votes.set(i - j, (votes.get(i - j) ?? 0) + key.length);
  }
  return argmax(votes);
}

function bestWindowByWords(index: LineIndex, needleLines: string[]): number | undefined {
  const needleWords = needleLines.map((line) => new Set(words(line)));
  const wanted = new Set(needleWords.flatMap((set) => [...set]));
  if (wanted.size === 0) return undefined;
  const height = needleLines.length;
  const fileWords: Array<Set<string>> = [new Set()];
  for (let i = 1; i <= index.lineCount; i++) fileWords.push(new Set(words(index.lineText(i).slice(0, SCORED_CHARS)).filter((w) => wanted.has(w))));

  let best: number | undefined;
  let bestScore = 0;
  const consider = (start: number, score: number): void => {
    if (score > bestScore) [best, bestScore] = [start, score];
  };
  if (index.lineCount * height <= ALIGNED_BUDGET) {
    // Aligned: needle line j is compared with file line start + j, so the window lines up.
    for (let start = 1; start <= index.lineCount; start++) {
      let score = 0;
      for (let j = 0; j < height && start + j <= index.lineCount; j++) score += overlap(fileWords[start + j]!, needleWords[j]!);
      consider(start, score);
    }
  } else {
    // Too big to align: the window holding the most of old_string's words, by a running sum.
    let sum = 0;
    for (let i = 1; i <= index.lineCount; i++) {
      sum += fileWords[i]!.size;
      if (i > height) sum -= fileWords[i - height]!.size;
      consider(Math.max(1, i - height + 1), sum);
    }
  }
  return best;
}

function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const word of a) if (b.has(word)) n++;
  return n;
}

function argmax(votes: Map<number, number>): number | undefined {
  let best: number | undefined;
  let bestVotes = 0;
  for (const [start, count] of votes) {
    if (count > bestVotes || (count === bestVotes && best !== undefined && start < best)) {
      best = start;
      bestVotes = count;
    }
  }
  return best;
}

function normalise(line: string): string {
  return line.trim().replace(/\s+/g, ' ');
}

function words(line: string): string[] {
  return line.match(/[\p{L}\p{N}_$]+/gu) ?? [];
}
