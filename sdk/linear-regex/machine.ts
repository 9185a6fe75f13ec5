/**
 * The matcher: a regex tree (syntax.ts) compiled to a Thompson automaton and run as a Pike
 * machine, every thread in step over the input, each instruction at most once per position. A
 * test costs O(input length × program size) whatever the pattern and the input: there is no
 * backtracking to explode (V8's engine takes exponential time on `*a*a*a*a*b`-like globs).
 *
 * A lookahead is a program of its own, run from the position where its instruction is reached
 * (at most once per position for each instruction); it stops as soon as it matched or has no
 * thread left, so one whose body is bounded (`(?=.)`, `(?!\.{1,2}(?:\/|$))`) costs a constant.
 */
import { CharSet, isWordChar } from './char-set.js';
import { UnsupportedRegExp, type Node } from './syntax.js';

// Instructions. CHAR consumes one character that passes its test and goes on to the next
// instruction; LOOP (a one-character `x*`) consumes one and stays, and may also be skipped.
const CHAR = 0;
const LOOP = 1;
const SPLIT = 2;
const JUMP = 3;
const START = 4;
const END = 5;
const WORD = 6;
const NONWORD = 7;
const LOOK = 8;
const MATCH = 9;

// Character tests of CHAR and LOOP: the character `a`, any character but `a` (`[^/]`), or the set `sets[a]`.
const IS = 0;
const IS_NOT = 1;
const IN_SET = 2;

/** Instructions beyond this are refused (counted repetitions of a large group). */
const MAX_PROGRAM = 200_000;

export interface MachineFlags {
  unicode: boolean;
  ignoreCase: boolean;
  multiline: boolean;
}

interface Look {
  program: Program;
  negate: boolean;
}

export class Program {
  private readonly op: Uint8Array;
  private readonly test: Uint8Array;
  private readonly a: Int32Array;
  private readonly b: Int32Array;
  private readonly sets: CharSet[];
  private readonly looks: Look[];
  /** The program can only match from the start of the input (`^…` without `m`). */
  private readonly anchored: boolean;
  // run-time state, reused by every run
  private readonly marks: Int32Array;
  private stamp = 0;
  private current: Int32Array;
  private next: Int32Array;
  private readonly stack: Int32Array;

  constructor(
    body: Node,
    private readonly flags: MachineFlags,
  ) {
    const builder = new Builder(flags.ignoreCase);
    builder.emit(body);
    builder.push(MATCH, 0, 0);
    this.op = Uint8Array.from(builder.op);
    this.test = Uint8Array.from(builder.test);
    this.a = Int32Array.from(builder.a);
    this.b = Int32Array.from(builder.b);
    this.sets = builder.sets;
    this.looks = builder.looks.map((look) => ({ program: new Program(look.body, flags), negate: look.negate }));
    this.anchored = this.op[0] === START && !flags.multiline;
    const size = this.op.length;
    this.marks = new Int32Array(size);
    this.current = new Int32Array(size);
    this.next = new Int32Array(size);
    this.stack = new Int32Array(size + 1);
  }

  /**
   * Whether the program matches `input` from `start`: anywhere at or after it (`search`), or at
   * `start` exactly, any prefix of the rest (a lookahead's body).
   */
  run(input: string, start: number, search: boolean): boolean {
    const { unicode, ignoreCase } = this.flags;
    const n = input.length;
    const anchoredHere = !search || this.anchored;
    if (this.anchored && start !== 0) return false;
    let count = 0;
    let pos = start;
    this.newStamp();
    for (;;) {
      if (!anchoredHere || pos === start) {
        const added = this.add(this.current, count, 0, input, pos);
        if (added < 0) return true;
        count = added;
      }
      if (count === 0 && (anchoredHere || pos >= n)) return false;
      if (pos >= n) return false;
      let c = input.charCodeAt(pos);
      let width = 1;
      if (unicode && c >= 0xd800 && c <= 0xdbff && pos + 1 < n) {
        const low = input.charCodeAt(pos + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          width = 2;
        }
      }
      pos += width;
      this.newStamp();
      let nextCount = 0;
      const op = this.op;
      const marks = this.marks;
      const next = this.next;
      const stamp = this.stamp;
      for (let k = 0; k < count; k++) {
        const pc = this.current[k]!;
        const test = this.test[pc];
        const arg = this.a[pc]!;
        const ok = test === IS ? c === arg : test === IS_NOT ? c !== arg : ignoreCase ? this.sets[arg]!.hasFolded(c, unicode) : this.sets[arg]!.has(c);
        if (!ok) continue;
        const to = op[pc] === LOOP ? pc : pc + 1;
        if (marks[to] === stamp) continue;
        if (op[to] === CHAR) {
          // the common case: no epsilon move to follow
          marks[to] = stamp;
          next[nextCount++] = to;
          continue;
        }
        const added = this.add(next, nextCount, to, input, pos);
        if (added < 0) return true;
        nextCount = added;
      }
      const swap = this.current;
      this.current = this.next;
      this.next = swap;
      count = nextCount;
    }
  }

  private newStamp(): void {
    if (++this.stamp === 0x7fffffff) {
      this.marks.fill(0);
      this.stamp = 1;
    }
  }

  /**
   * Adds the threads reachable from `pc` without consuming input (at `pos`) to `list`; returns
   * the new length, or -1 when a match was reached.
   */
  private add(list: Int32Array, length: number, pc: number, input: string, pos: number): number {
    const stack = this.stack;
    const marks = this.marks;
    const stamp = this.stamp;
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      let at = stack[--top]!;
      for (;;) {
        if (marks[at] === stamp) break;
        marks[at] = stamp;
        const op = this.op[at];
        if (op === CHAR) {
          list[length++] = at;
          break;
        }
        if (op === LOOP) {
          list[length++] = at;
          at++; // zero repetitions
          continue;
        }
        if (op === MATCH) return -1;
        if (op === JUMP) {
          at = this.a[at]!;
          continue;
        }
        if (op === SPLIT) {
          stack[top++] = this.b[at]!;
          at = this.a[at]!;
          continue;
        }
        if (!this.holds(op!, at, input, pos)) break;
        at++;
      }
    }
    return length;
  }

  private holds(op: number, at: number, input: string, pos: number): boolean {
    switch (op) {
      case START:
        return pos === 0 || (this.flags.multiline && isLineTerminator(input.charCodeAt(pos - 1)));
      case END:
        return pos === input.length || (this.flags.multiline && isLineTerminator(input.charCodeAt(pos)));
      case WORD:
      case NONWORD: {
        const before = pos > 0 && isWordChar(input.charCodeAt(pos - 1));
        const after = pos < input.length && isWordChar(input.charCodeAt(pos));
        return (before !== after) === (op === WORD);
      }
      default: {
        const look = this.looks[this.a[at]!]!;
        return look.program.run(input, pos, false) !== look.negate;
      }
    }
  }
}

function isLineTerminator(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;
}

class Builder {
  constructor(private readonly ignoreCase: boolean) {}

  readonly op: number[] = [];
  readonly test: number[] = [];
  readonly a: number[] = [];
  readonly b: number[] = [];
  readonly sets: CharSet[] = [];
  readonly looks: { body: Node; negate: boolean }[] = [];

  push(op: number, a: number, b: number, test = IS): number {
    if (this.op.length >= MAX_PROGRAM) throw new UnsupportedRegExp('the pattern is too large');
    this.op.push(op);
    this.test.push(test);
    this.a.push(a);
    this.b.push(b);
    return this.op.length - 1;
  }

  emit(node: Node): void {
    switch (node.type) {
      case 'empty':
        return;
      case 'char':
        this.consume(CHAR, node.set);
        return;
      case 'seq':
        for (const item of node.items) this.emit(item);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.options.forEach((option, k) => {
          if (k < node.options.length - 1) {
            const split = this.push(SPLIT, 0, 0);
            this.a[split] = this.op.length;
            this.emit(option);
            jumps.push(this.push(JUMP, 0, 0));
            this.b[split] = this.op.length;
          } else {
            this.emit(option);
          }
        });
        for (const jump of jumps) this.a[jump] = this.op.length;
        return;
      }
      case 'repeat': {
        for (let k = 0; k < node.min; k++) this.emit(node.body);
        if (node.max === Infinity && node.body.type === 'char') {
          this.consume(LOOP, node.body.set);
          return;
        }
        if (node.max === Infinity) {
          const split = this.push(SPLIT, 0, 0);
          this.a[split] = this.op.length;
          this.emit(node.body);
          this.push(JUMP, split, 0);
          this.b[split] = this.op.length;
          return;
        }
        const splits: number[] = [];
        for (let k = node.min; k < node.max; k++) {
          const split = this.push(SPLIT, 0, 0);
          this.a[split] = this.op.length;
          splits.push(split);
          this.emit(node.body);
        }
        for (const split of splits) this.b[split] = this.op.length;
        return;
      }
      case 'assert':
        this.push(node.kind === 'start' ? START : node.kind === 'end' ? END : node.kind === 'word' ? WORD : NONWORD, 0, 0);
        return;
      case 'look':
        this.looks.push({ body: node.body, negate: node.negate });
        this.push(LOOK, this.looks.length - 1, 0);
        return;
    }
  }

  /** A CHAR or LOOP instruction with the cheapest test for `set`. */
  private consume(op: number, set: CharSet): void {
    const r = set.ranges;
    if (!this.ignoreCase && r.length === 2 && r[0] === r[1]) {
      this.push(op, r[0]!, 0, set.negate ? IS_NOT : IS);
      return;
    }
    this.sets.push(set);
    this.push(op, this.sets.length - 1, 0, IN_SET);
  }
}
