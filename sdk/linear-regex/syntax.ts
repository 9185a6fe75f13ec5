/**
 * A JavaScript regular expression's source, already accepted by `new RegExp` with the same flags,
 * read into a tree for the linear-time matcher (machine.ts). Everything that has a meaning for
 * `test()` is read, except what no automaton can match in linear time: backreferences and
 * lookbehind are refused (UnsupportedRegExp), as are a few legacy (Annex B) spellings whose
 * meaning depends on the rest of the pattern (octal escapes, `\c` without a letter, `\k`).
 */
import { CharSet, complement, DIGIT, LINE_TERMINATORS, MAX_CODE_POINT, MAX_CODE_UNIT, SPACE, WORD } from './char-set.js';

export class UnsupportedRegExp extends Error {}

export type Node =
  | { type: 'empty' }
  | { type: 'char'; set: CharSet }
  | { type: 'seq'; items: Node[] }
  | { type: 'alt'; options: Node[] }
  | { type: 'repeat'; body: Node; min: number; max: number }
  | { type: 'assert'; kind: 'start' | 'end' | 'word' | 'nonword' }
  | { type: 'look'; body: Node; negate: boolean };

export interface SyntaxFlags {
  unicode: boolean;
  dotAll: boolean;
}

/** Counted repetitions beyond this are refused: the matcher spells each copy out. */
const MAX_COUNT = 1000;

export function parseRegExp(source: string, flags: SyntaxFlags): Node {
  return new Parser(source, flags).parse();
}

type ClassAtom = { set: number[] } | { char: number };

class Parser {
  private pos = 0;
  private readonly max: number;

  constructor(
    private readonly src: string,
    private readonly flags: SyntaxFlags,
  ) {
    this.max = flags.unicode ? MAX_CODE_POINT : MAX_CODE_UNIT;
  }

  parse(): Node {
    const node = this.disjunction();
    if (this.pos < this.src.length) throw new UnsupportedRegExp(`unexpected ${JSON.stringify(this.src[this.pos])} at ${this.pos}`);
    return node;
  }

  private disjunction(): Node {
    const options = [this.alternative()];
    while (this.src[this.pos] === '|') {
      this.pos++;
      options.push(this.alternative());
    }
    return options.length === 1 ? options[0]! : { type: 'alt', options };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.pos < this.src.length && this.src[this.pos] !== '|' && this.src[this.pos] !== ')') {
      items.push(this.quantified(this.term()));
    }
    if (items.length === 0) return { type: 'empty' };
    return items.length === 1 ? items[0]! : { type: 'seq', items };
  }

  private term(): Node {
    const ch = this.src[this.pos]!;
    if (ch === '^') {
      this.pos++;
      return { type: 'assert', kind: 'start' };
    }
    if (ch === '$') {
      this.pos++;
      return { type: 'assert', kind: 'end' };
    }
    if (ch === '(') return this.group();
    if (ch === '.') {
      this.pos++;
      return { type: 'char', set: new CharSet(this.flags.dotAll ? [] : LINE_TERMINATORS, true) };
    }
    if (ch === '[') return { type: 'char', set: this.characterClass() };
    if (ch === '\\') {
      const next = this.src[this.pos + 1];
      if (next === 'b' || next === 'B') {
        this.pos += 2;
        return { type: 'assert', kind: next === 'b' ? 'word' : 'nonword' };
      }
      this.pos++;
      const atom = this.escape(false);
      return { type: 'char', set: 'set' in atom ? new CharSet(atom.set, false) : new CharSet([atom.char, atom.char], false) };
    }
    const c = this.sourceChar();
    return { type: 'char', set: new CharSet([c, c], false) };
  }

  /** One character of the source: a code point with `u` (a surrogate pair is one), else a code unit. */
  private sourceChar(): number {
    if (this.flags.unicode) {
      const c = this.src.codePointAt(this.pos)!;
      this.pos += c > 0xffff ? 2 : 1;
      return c;
    }
    return this.src.charCodeAt(this.pos++);
  }

  private group(): Node {
    this.pos++; // (
    let look: { negate: boolean } | undefined;
    if (this.src.startsWith('?:', this.pos)) this.pos += 2;
    else if (this.src.startsWith('?=', this.pos) || this.src.startsWith('?!', this.pos)) {
      look = { negate: this.src[this.pos + 1] === '!' };
      this.pos += 2;
    } else if (this.src.startsWith('?<=', this.pos) || this.src.startsWith('?<!', this.pos)) {
      throw new UnsupportedRegExp('lookbehind');
    } else if (this.src.startsWith('?<', this.pos)) {
      const close = this.src.indexOf('>', this.pos);
      this.pos = close + 1; // a named capture: its name does not matter to test()
    } else if (this.src[this.pos] === '?') {
      throw new UnsupportedRegExp('group modifiers');
    }
    const body = this.disjunction();
    if (this.src[this.pos] !== ')') throw new UnsupportedRegExp('unclosed group');
    this.pos++;
    return look ? { type: 'look', body, negate: look.negate } : body;
  }

  private quantified(atom: Node): Node {
    let min: number;
    let max: number;
    const ch = this.src[this.pos];
    if (ch === '*' || ch === '+' || ch === '?') {
      this.pos++;
      min = ch === '+' ? 1 : 0;
      max = ch === '?' ? 1 : Infinity;
    } else if (ch === '{') {
      const counted = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.src.slice(this.pos));
      if (!counted) return atom; // a literal `{` (legacy syntax): read by term() next
      this.pos += counted[0].length;
      min = Number(counted[1]);
      max = counted[2] === undefined ? min : counted[3] === '' ? Infinity : Number(counted[3]);
      if (min > MAX_COUNT || (max !== Infinity && max > MAX_COUNT)) throw new UnsupportedRegExp(`a repetition count above ${MAX_COUNT}`);
    } else {
      return atom;
    }
    if (this.src[this.pos] === '?') this.pos++; // lazy or greedy: the same for test()
    if (atom.type === 'assert') return max === 0 ? { type: 'empty' } : min === 0 ? { type: 'empty' } : atom;
    return { type: 'repeat', body: atom, min, max };
  }

  private characterClass(): CharSet {
    this.pos++; // [
    let negate = false;
    if (this.src[this.pos] === '^') {
      negate = true;
      this.pos++;
    }
    const ranges: number[] = [];
    while (this.src[this.pos] !== ']') {
      if (this.pos >= this.src.length) throw new UnsupportedRegExp('unclosed class');
      const lo = this.classAtom();
      if (this.src[this.pos] === '-' && this.src[this.pos + 1] !== ']' && this.pos + 1 < this.src.length) {
        this.pos++;
        const hi = this.classAtom();
        if ('char' in lo && 'char' in hi) {
          ranges.push(lo.char, hi.char);
        } else {
          // `[\d-z]` (legacy syntax): the escape, a literal `-`, and the other end
          for (const side of [lo, hi]) ranges.push(...('set' in side ? side.set : [side.char, side.char]));
          ranges.push(0x2d, 0x2d);
        }
        continue;
      }
      ranges.push(...('set' in lo ? lo.set : [lo.char, lo.char]));
    }
    this.pos++; // ]
    return new CharSet(ranges, negate);
  }

  private classAtom(): ClassAtom {
    if (this.src[this.pos] !== '\\') return { char: this.sourceChar() };
    this.pos++;
    if (this.src[this.pos] === 'b') {
      this.pos++;
      return { char: 0x08 };
    }
    if (this.src[this.pos] === '-') {
      this.pos++;
      return { char: 0x2d };
    }
    return this.escape(true);
  }

  /** After a `\`: a class escape (`\d`…) or one character. */
  private escape(inClass: boolean): ClassAtom {
    const ch = this.src[this.pos]!;
    const u = this.flags.unicode;
    switch (ch) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S': {
        this.pos++;
        const base = ch.toLowerCase() === 'd' ? DIGIT : ch.toLowerCase() === 'w' ? WORD : SPACE;
        return { set: ch === ch.toLowerCase() ? base : complement(base, this.max) };
      }
      case 't':
        this.pos++;
        return { char: 0x09 };
      case 'n':
        this.pos++;
        return { char: 0x0a };
      case 'v':
        this.pos++;
        return { char: 0x0b };
      case 'f':
        this.pos++;
        return { char: 0x0c };
      case 'r':
        this.pos++;
        return { char: 0x0d };
      case 'c': {
        const letter = this.src[this.pos + 1];
        if (letter === undefined || !/[A-Za-z]/.test(letter)) throw new UnsupportedRegExp('\\c without a letter');
        this.pos += 2;
        return { char: letter.charCodeAt(0) % 32 };
      }
      case 'x': {
        const hex = /^[0-9A-Fa-f]{2}/.exec(this.src.slice(this.pos + 1));
        if (!hex) break; // legacy: a literal x
        this.pos += 3;
        return { char: parseInt(hex[0], 16) };
      }
      case 'u':
        return this.unicodeEscape();
      case 'k':
        throw new UnsupportedRegExp('\\k (named backreference)');
      case 'p':
      case 'P':
        if (u) throw new UnsupportedRegExp('Unicode property escapes');
        break;
      default:
        if (ch === '0' && !/[0-9]/.test(this.src[this.pos + 1] ?? '')) {
          this.pos++;
          return { char: 0 };
        }
        if (/[0-9]/.test(ch)) throw new UnsupportedRegExp(inClass ? 'octal escape' : 'backreference');
    }
    return { char: this.sourceChar() }; // an identity escape: the character itself
  }

  private unicodeEscape(): ClassAtom {
    const rest = this.src.slice(this.pos + 1);
    if (this.flags.unicode) {
      const braced = /^\{([0-9A-Fa-f]+)\}/.exec(rest);
      if (braced) {
        this.pos += 1 + braced[0].length;
        return { char: parseInt(braced[1]!, 16) };
      }
    }
    const four = /^[0-9A-Fa-f]{4}/.exec(rest);
    if (!four) return { char: this.sourceChar() }; // legacy: a literal u
    this.pos += 5;
    const unit = parseInt(four[0], 16);
    if (this.flags.unicode && unit >= 0xd800 && unit <= 0xdbff) {
      // `\uD83D\uDE00` is one code point with `u`
      const low = /^\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})/.exec(this.src.slice(this.pos));
      if (low) {
        this.pos += 6;
        return { char: 0x10000 + ((unit - 0xd800) << 10) + (parseInt(low[1]!, 16) - 0xdc00) };
      }
    }
    return { char: unit };
  }
}
