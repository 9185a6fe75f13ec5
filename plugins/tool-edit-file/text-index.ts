/** Occurrences of a string and 1-based line numbers of positions, in one pass each. */

/** Non-overlapping occurrences, left to right (what a replacement would replace). */
export function findOccurrences(text: string, needle: string, limit = Infinity): number[] {
  const found: number[] = [];
  if (needle === '') return found;
  for (let i = text.indexOf(needle); i !== -1 && found.length < limit; i = text.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

export class LineIndex {
  /** Index of the first character of each line; a text ending in \n has an empty last line. */
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The 1-based line holding character `index`. */
  lineOf(index: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] as number) <= index) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  /** Index of the first character of `line`. */
  startOf(line: number): number {
    return this.starts[line - 1] ?? this.text.length;
  }

  /** Index just past `line`, its newline included. */
  endOf(line: number): number {
    return this.starts[line] ?? this.text.length;
  }

  /** The line's text without its newline (or a trailing \r). */
  lineText(line: number): string {
    const end = this.starts[line] === undefined ? this.text.length : (this.starts[line] as number) - 1;
    const text = this.text.slice(this.startOf(line), end);
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}
