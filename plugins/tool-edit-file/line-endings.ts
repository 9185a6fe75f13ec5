/**
 * CRLF files keep CRLF (T4). read_file shows lines without their \r, so the model's strings
 * use LF. A file whose every newline is CRLF is matched as LF text and written back with CRLF.
 * A file that mixes both is matched byte for byte, and if that finds nothing, with the model's
 * newlines turned into CRLF: only the edited text changes, the other lines keep their endings.
 */
export type LineEndings = 'lf' | 'crlf' | 'mixed';

export interface MatchText {
  /** What old_string is searched in. */
  text: string;
  endings: LineEndings;
}

export function matchText(raw: string): MatchText {
  const crlf = count(raw, '\r\n');
  if (crlf === 0) return { text: raw, endings: 'lf' };
  if (crlf === count(raw, '\n')) return { text: raw.replace(/\r\n/g, '\n'), endings: 'crlf' };
  return { text: raw, endings: 'mixed' };
}

export function toDisk(text: string, endings: LineEndings): string {
  return endings === 'crlf' ? text.replace(/\n/g, '\r\n') : text;
}

/** The (old, new) pairs to try, in order; the first with a match is used. */
export function stringVariants(oldString: string, newString: string, endings: LineEndings): Array<[string, string]> {
  const lf = (s: string): string => s.replace(/\r\n/g, '\n');
  const crlf = (s: string): string => lf(s).replace(/\n/g, '\r\n');
  if (endings === 'crlf') return [[lf(oldString), lf(newString)]];
  const variants: Array<[string, string]> = [[oldString, newString]];
  if (oldString.includes('\r\n')) variants.push([lf(oldString), lf(newString)]);
  if (endings === 'mixed' && oldString.includes('\n')) variants.push([crlf(oldString), crlf(newString)]);
  return variants;
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}
