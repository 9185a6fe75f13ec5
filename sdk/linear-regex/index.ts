/**
 * `LinearRegExp`: what `new RegExp(source, flags).test(input)` answers, computed in time linear
 * in the input's length (times the pattern's size), never by backtracking.
 *
 * Why: V8's engine backtracks, so a pattern with several unbounded repetitions (`^[^/]*a[^/]*a
 * [^/]*a…b$`, which is what a glob such as `*a*a*a*a*a*a*a*b` becomes) takes time exponential
 * in the number of stars on a name that almost matches; the match is synchronous, so neither a
 * deadline nor SIGTERM can end it. Every pattern that comes from a file the repository (or its
 * settings) controls — ignore files, permission rules, hook matchers — and every glob the model
 * writes must therefore be matched here, or by V8 only when its shape is proven to backtrack
 * at most linearly (sdk/search-common/gitignore-glob.ts, picomatch.ts).
 *
 * The source is checked by `new RegExp` first (same SyntaxError), then read by syntax.ts: every
 * construct has JavaScript's meaning. Refused with UnsupportedRegExp: backreferences, lookbehind,
 * Unicode property escapes, the `g`, `y` and `v` flags, and, unless `unboundedLookahead` is set,
 * a lookahead whose body can read without bound (`(?=.*x)`: run from every position, it would
 * make the test quadratic).
 */
import { Program } from './machine.js';
import { parseRegExp, UnsupportedRegExp, type Node } from './syntax.js';

export { UnsupportedRegExp };

export interface LinearRegExpOptions {
  /** Accept lookaheads that can read to the end of the input (quadratic worst case). */
  unboundedLookahead?: boolean;
}

export class LinearRegExp {
  private readonly program: Program;
  /** Texts one of which every match contains: an input with none is refused without running the machine. */
  private readonly required: string[];

  constructor(
    readonly source: string,
    readonly flags: string = '',
    options: LinearRegExpOptions = {},
  ) {
    new RegExp(source, flags); // JavaScript's own syntax check
    if (/[gyv]/.test(flags)) throw new UnsupportedRegExp(`the flag ${/[gyv]/.exec(flags)![0]}`);
    const unicode = flags.includes('u');
    const tree = parseRegExp(source, { unicode, dotAll: flags.includes('s') });
    if (!options.unboundedLookahead) refuseUnboundedLookahead(tree);
    this.program = new Program(tree, { unicode, ignoreCase: flags.includes('i'), multiline: flags.includes('m') });
    this.required = flags.includes('i') ? [] : requiredLiterals(tree);
  }

  test(input: string): boolean {
    const required = this.required;
    if (required.length === 1 ? !input.includes(required[0]!) : required.length > 1 && !required.some((text) => input.includes(text))) return false;
    return this.program.run(input, 0, true);
  }
}

/**
 * Texts one of which every match contains (`.min.` in `^[^/]*\.min\.[^/]*$`; `orig` or `rej` in
 * `^[^/]*\.(?:orig|rej)$`), or none. Runs of literal characters are read in the top-level sequence
 * and in groups that must match once; an alternation counts when each of its options has such
 * texts. Assertions (`^`, a lookahead) consume nothing and do not break a run. The candidate whose
 * shortest text is longest wins.
 */
function requiredLiterals(node: Node): string[] {
  let best: string[] = [];
  const score = (texts: string[]): number => (texts.length === 0 ? 0 : Math.min(...texts.map((t) => t.length)));
  const offer = (texts: string[]): void => {
    if (score(texts) > score(best)) best = texts;
  };
  let run = '';
  const flush = (): void => {
    offer([run]);
    run = '';
  };
  const walk = (item: Node): void => {
    if (item.type === 'char') {
      const c = item.set.single();
      if (c >= 0) run += String.fromCodePoint(c);
      else flush();
    } else if (item.type === 'seq') {
      item.items.forEach(walk);
    } else if (item.type === 'repeat' && item.min === 1 && item.max === 1) {
      walk(item.body);
    } else if (item.type === 'assert' || item.type === 'look' || item.type === 'empty') {
      // zero-width: the characters around it are still consecutive
    } else {
      flush();
      if (item.type === 'alt') {
        const options = item.options.map(requiredLiterals);
        if (options.every((texts) => texts.length > 0)) offer(options.flat());
      }
    }
  };
  walk(node);
  flush();
  return best;
}

function refuseUnboundedLookahead(node: Node): void {
  switch (node.type) {
    case 'look':
      if (maxLength(node.body) === Infinity) throw new UnsupportedRegExp('a lookahead that can read without bound');
      refuseUnboundedLookahead(node.body);
      return;
    case 'seq':
      node.items.forEach(refuseUnboundedLookahead);
      return;
    case 'alt':
      node.options.forEach(refuseUnboundedLookahead);
      return;
    case 'repeat':
      refuseUnboundedLookahead(node.body);
      return;
    default:
      return;
  }
}

/** The most characters `node` can consume. */
function maxLength(node: Node): number {
  switch (node.type) {
    case 'char':
      return 1;
    case 'seq':
      return node.items.reduce((sum, item) => sum + maxLength(item), 0);
    case 'alt':
      return Math.max(...node.options.map(maxLength));
    case 'repeat': {
      const body = maxLength(node.body);
      return body === 0 ? 0 : body * node.max;
    }
    default:
      return 0;
  }
}
