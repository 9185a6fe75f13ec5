/**
 * The error for an old_string that matches nothing: where the closest text is, shown with line
 * numbers as read_file shows it, and what most likely went wrong.
 */
import { closestRegion } from './closest-region.js';
import { findOccurrences, type LineIndex } from './text-index.js';

/** Lines of the closest region shown, and characters of each (from OutputLimits). */
export interface HintLimits {
  maxLines: number;
  lineMaxChars: number;
}

/** read_file's prefix: a right-aligned number and a tab. */
const LINE_NUMBER_PREFIX = /^ *\d+\t/;

export function noMatchMessage(display: string, text: LineIndex, oldString: string, limits: HintLimits, cutLine: (line: string, maxChars: number) => string): string {
  const parts = [`old_string was not found in ${display}.`];
  const hint = lineNumberHint(text, oldString);
  if (hint) parts.push(hint);
  const region = closestRegion(text, oldString);
  if (region) {
    const shownEnd = Math.min(region.endLine, region.startLine + limits.maxLines - 1);
    const range = region.startLine === region.endLine ? `line ${region.startLine}` : `lines ${region.startLine}-${region.endLine}`;
    parts.push(
      region.whitespaceOnly
        ? `${range.charAt(0).toUpperCase()}${range.slice(1)} ${region.startLine === region.endLine ? 'matches' : 'match'} it except for whitespace (indentation, tabs vs spaces, or trailing spaces):`
        : `The most similar region is ${range}:`,
    );
    const lines: string[] = [];
    for (let line = region.startLine; line <= shownEnd; line++) lines.push(`${String(line).padStart(6)}\t${cutLine(text.lineText(line), limits.lineMaxChars)}`);
    if (shownEnd < region.endLine) lines.push(`[… ${region.endLine - shownEnd} more lines]`);
    parts.push(lines.join('\n'));
    parts.push(
      `Copy the exact text from the file, including indentation and whitespace and without the line-number prefixes, and retry. If the file may have changed, call read_file on it first (offset=${region.startLine}).`,
    );
  } else {
    parts.push('No similar lines were found either. Call read_file on the file to see its current content, then copy the exact text to replace.');
  }
  return parts.join('\n');
}

/** The classic slip: old_string copied from read_file output with the `%6d\t` prefixes. */
function lineNumberHint(text: LineIndex, oldString: string): string | undefined {
  const lines = oldString.split('\n');
  const nonEmpty = lines.filter((line) => line.trim() !== '');
  if (nonEmpty.length === 0 || !nonEmpty.every((line) => LINE_NUMBER_PREFIX.test(line))) return undefined;
  const stripped = lines.map((line) => line.replace(LINE_NUMBER_PREFIX, '')).join('\n');
  const found = findOccurrences(text.text, stripped, 1)[0];
  const where = found === undefined ? '' : ` Without them it matches at line ${text.lineOf(found)}.`;
  return `old_string seems to include read_file's line-number prefixes (a number and a tab at the start of each line); they are not part of the file, remove them.${where}`;
}
