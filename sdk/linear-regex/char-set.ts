/**
 * Sets of characters for the linear-time matcher: sorted, disjoint, inclusive ranges of code
 * points (with the `u` flag) or UTF-16 code units (without it), possibly complemented, and
 * JavaScript's case-insensitive comparison (`i`).
 */

export const MAX_CODE_UNIT = 0xffff;
export const MAX_CODE_POINT = 0x10ffff;

export class CharSet {
  /** `[lo, hi, lo, hi, …]`, sorted and disjoint. */
  readonly ranges: Int32Array;

  constructor(
    ranges: readonly number[],
    /** The set is every character NOT in `ranges` (`[^…]`, `.`, `\W`…). */
    readonly negate: boolean,
  ) {
    this.ranges = Int32Array.from(normalize(ranges));
  }

  /** Whether `c` is in the set, compared exactly. */
  has(c: number): boolean {
    const r = this.ranges;
    let inside = false;
    for (let k = 0; k < r.length; k += 2) {
      if (c < r[k]!) break;
      if (c <= r[k + 1]!) {
        inside = true;
        break;
      }
    }
    return inside !== this.negate;
  }

  /**
   * Whether `c` is in the set under the `i` flag: some character that folds to the same one as
   * `c` is in the ranges. (Exact for every character whose case variants are its upper- and
   * lower-case forms, which is all of ASCII and nearly all of Unicode.)
   */
  hasFolded(c: number, unicode: boolean): boolean {
    const r = this.ranges;
    let inside = false;
    for (const v of caseVariants(c, unicode)) {
      for (let k = 0; k < r.length; k += 2) {
        if (v < r[k]!) break;
        if (v <= r[k + 1]!) {
          inside = true;
          break;
        }
      }
      if (inside) break;
    }
    return inside !== this.negate;
  }

  /** The single character of a one-character set, else -1. */
  single(): number {
    return !this.negate && this.ranges.length === 2 && this.ranges[0] === this.ranges[1] ? this.ranges[0]! : -1;
  }
}

/** Sorts and merges `[lo, hi, …]` ranges. */
export function normalize(ranges: readonly number[]): number[] {
  const pairs: [number, number][] = [];
  for (let k = 0; k < ranges.length; k += 2) pairs.push([ranges[k]!, ranges[k + 1]!]);
  pairs.sort((x, y) => x[0] - y[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (hi < lo) continue;
    const last = out.length - 1;
    if (last > 0 && lo <= out[last]! + 1) out[last] = Math.max(out[last]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

/** Every character up to `max` that is not in `ranges`. */
export function complement(ranges: readonly number[], max: number): number[] {
  const sorted = normalize(ranges);
  const out: number[] = [];
  let next = 0;
  for (let k = 0; k < sorted.length; k += 2) {
    if (sorted[k]! > next) out.push(next, sorted[k]! - 1);
    next = sorted[k + 1]! + 1;
  }
  if (next <= max) out.push(next, max);
  return out;
}

export const DIGIT = [0x30, 0x39];
export const WORD = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** JavaScript's `\s`: WhiteSpace and LineTerminator. */
export const SPACE = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];
export const LINE_TERMINATORS = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];

export function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || (c >= 0x61 && c <= 0x7a);
}

/**
 * JavaScript's Canonicalize for the `i` flag: without `u`, the upper case of the code unit when
 * that is one code unit and does not turn a non-ASCII character into an ASCII one; with `u`,
 * simple case folding (approximated by the lower case of the upper case, one code point).
 */
function canonicalize(c: number, unicode: boolean): number {
  const text = String.fromCodePoint(c);
  if (!unicode) {
    const upper = text.toUpperCase();
    if (upper.length !== 1) return c;
    const u = upper.charCodeAt(0);
    return c >= 128 && u < 128 ? c : u;
  }
  const folded = text.toUpperCase().toLowerCase();
  return [...folded].length === 1 ? folded.codePointAt(0)! : c;
}

function caseVariants(c: number, unicode: boolean): number[] {
  const canon = canonicalize(c, unicode);
  const out = [c];
  const text = String.fromCodePoint(c);
  for (const candidate of [canon, text.toLowerCase(), text.toUpperCase(), String.fromCodePoint(canon).toLowerCase(), String.fromCodePoint(canon).toUpperCase()]) {
    const v = typeof candidate === 'number' ? candidate : [...candidate].length === 1 ? candidate.codePointAt(0)! : -1;
    if (v < 0 || out.includes(v)) continue;
    if (!unicode && v > MAX_CODE_UNIT) continue;
    if (canonicalize(v, unicode) === canon) out.push(v);
  }
  return out;
}
