/**
 * The parser-free syntax tree of plain command lines (sdk/shell-command/simple-syntax.ts) is a
 * shortcut for the permission layers' analysis, so it must be exactly tree-sitter's tree wherever
 * it answers: the analysis then cannot tell them apart. Differential: thousands of generated
 * lines of the plain language (every token kind in every position, odd spacing, digits, keywords,
 * real command names) and as many mutated lines (a character of any kind inserted, removed or
 * doubled). Whatever the shortcut answers must equal tree-sitter's copy of the tree; what it
 * does not fully know must be declined.
 */
import { simpleSyntaxTree } from '../../../sdk/shell-command/simple-syntax.js';
import { bashParser, parseToSyntaxTree, type SyntaxNode } from '../../../sdk/shell-command/syntax-tree.js';
import { seededRandom } from '../../support/seeded-random.js';

let treeSitter: (source: string) => SyntaxNode;
beforeAll(async () => {
  const parser = await bashParser();
  treeSitter = (source) => parseToSyntaxTree(parser, source);
});

const random = seededRandom;

const WORD_CHARS = 'abcxyzABZ019_./:,@%+=~*?^-';
const COMMAND_NAMES = [
  'ls', 'git', 'echo', 'cat', 'rm', 'cd', 'pwd', 'npm', 'node', 'grep', 'find', 'xargs', 'sh', 'bash', 'eval', 'sudo', 'env', 'chmod',
  'mv', 'cp', 'dd', 'head', 'tail', 'wc', 'sort', 'python3', 'make', 'tar', 'ssh', 'curl', 'exec', 'command', 'builtin', 'nohup',
  'timeout', 'watch', 'alias', 'trap', 'read', 'mapfile', 'let', 'source', '.', ':', 'true', 'false', './run.sh', '/bin/ls', 'a.b',
  'x_y', 'x-y', 'ok:1', 'L',
];
const RESERVED = ['if', 'then', 'else', 'fi', 'do', 'done', 'for', 'in', 'while', 'case', 'esac', 'function', 'time', 'declare', 'export', 'local', 'unset', 'test', 'select', 'until', 'coproc', 'readonly', 'typeset', 'elif'];
/** Every literal token of tree-sitter-bash's grammar made of word characters, besides odd words. */
const GRAMMAR_LITERALS = [
  ',', '=', '++', '--', '+=', '-=', '*=', '/=', '%=', '**=', '^=', '-o', '-a', '^', '==', '+', '-', '*', '/', '%', '**', '=~', '?', ':', '~', '..',
  '@', ':=', ':-', ':+', ':?', '%%', '//', '/%', ',,', '^^', 'U', 'u', 'L', 'Q', 'E', 'P', 'A', 'K', 'a', 'k', '_',
];
const TRICKY_WORDS = [...GRAMMAR_LITERALS, 'x+y', 'a@b', 'p%q', 'a,b', 'g++', '-20', '20', '0x1F', '0x10', '-0x9', '1.5', '1:2', '1-2', '20x', '-', '--', '~', '~/src', 'a~b', '*', '*.ts', 's?c', '=', 'a=b', 'A+=1', '--x=1', '^x', '.', '..', '/', '-rf', '/dev/null', '%1', '@', ',', 'a,b', '00', '-0', '1'];

/**
 * Lines from `seed`. `plain()` keeps to the shapes the shortcut is meant to take (a list of
 * pipelines of at most two commands with redirections on the first command, or one pipeline with
 * redirections on its first and last command), with a reserved or odd word now and then in every
 * position; `wide()` mixes every shape; `mutate()` breaks a line in one place.
 */
function generator(seed: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number): boolean => next() < p;
  const blanks = (least: number): string => {
    let out = least > 0 ? ' ' : '';
    while (chance(0.25)) out += pick([' ', '\t']);
    return out;
  };
  const randomWord = (): string => {
    const length = 1 + Math.floor(next() * 7);
    let out = '';
    for (let i = 0; i < length; i++) out += pick([...WORD_CHARS]);
    return out;
  };
  const stringContent = (): string => {
    const length = Math.floor(next() * 6);
    let out = '';
    for (let i = 0; i < length; i++) out += pick([...'ab Z09-_*?|;&<>(){}#!~=.:\'', ' ']);
    return out;
  };
  const argument = (odd: number): string => {
    if (chance(odd)) return pick(TRICKY_WORDS);
    const roll = next();
    if (roll < 0.4) return randomWord();
    if (roll < 0.55) return pick([...COMMAND_NAMES, ...RESERVED]);
    if (roll < 0.8) return `"${stringContent().replace(/"/g, '')}"`;
    return `'${stringContent().replace(/'/g, '')}'`;
  };
  const name = (odd: number): string => {
    if (!chance(odd)) return pick(COMMAND_NAMES);
    return chance(0.5) ? randomWord() : pick([...RESERVED, ...TRICKY_WORDS]);
  };
  const target = (): string => pick([randomWord(), 'out.txt', '/dev/null', `"o ${randomWord()}"`, `'q'`, chance(0.3) ? pick(TRICKY_WORDS) : 'x']);
  const redirect = (): string => {
    const fd = chance(0.4) ? pick(['1', '2', '9', '0']) : '';
    if (chance(0.35)) return `${fd}>&${pick(['1', '2', '0'])}`;
    return `${fd}${pick(['>', '>>'])}${blanks(0)}${target()}`;
  };
  const command = (odd: number, redirects: boolean): string => {
    let out = name(odd);
    const args = Math.floor(next() * 4);
    for (let i = 0; i < args; i++) out += blanks(1) + argument(odd);
    const count = redirects && chance(0.4) ? 1 + Math.floor(next() * 3) : 0;
    for (let i = 0; i < count; i++) out += blanks(1) + redirect();
    return out;
  };
  const join = (parts: readonly string[], operators: readonly string[]): string =>
    parts.reduce((out, part) => out + blanks(chance(0.8) ? 1 : 0) + pick(operators) + blanks(chance(0.8) ? 1 : 0) + part);
  const count = (most: number): number => 1 + Math.floor(next() * most);
  const statement = (plain: boolean): string => {
    const odd = plain ? 0.04 : 0.3;
    if (plain && chance(0.5)) {
      // One pipeline: redirections on its first and last command.
      const stages = count(4);
      return join(Array.from({ length: stages }, (_, i) => command(odd, i === 0 || i === stages - 1)), ['|']);
    }
    // A list of pipelines (of at most two commands when plain).
    const pipelines = Array.from({ length: count(plain ? 3 : 4) }, (_, p) => {
      const stages = count(plain ? 2 : 4);
      return join(Array.from({ length: stages }, (_, i) => command(odd, !plain || (p === 0 && i === 0))), ['|']);
    });
    return join(pipelines, ['&&', '||']);
  };
  const line = (plain: boolean): string =>
    blanks(0) + join(Array.from({ length: count(plain ? 2 : 3) }, () => statement(plain)), [';']) + (chance(0.1) ? `${blanks(0)};` : '') + blanks(0);
  const mutate = (text: string): string => {
    const at = Math.floor(next() * (text.length + 1));
    const roll = next();
    if (roll < 0.6) {
      const inserted = chance(0.85) ? String.fromCharCode(32 + Math.floor(next() * 95)) : pick(['\n', '\t', '\r', 'é', '\\\n']);
      return text.slice(0, at) + inserted + text.slice(at);
    }
    if (roll < 0.8) return text.slice(0, at) + text.slice(at + 1);
    return text.slice(0, at) + text.slice(at, at + 2) + text.slice(at);
  };
  return { plain: () => line(true), wide: () => line(false), mutate };
}

/** A tree in one line: `type@field[start,end](children)`, for readable failures. */
function render(node: SyntaxNode): string {
  const field = node.field ? `@${node.field}` : '';
  const span = node.start >= 0 ? `[${node.start},${node.end}]` : '';
  const flags = `${node.named ? '' : '~'}${node.missing ? '!' : ''}`;
  return `${flags}${node.type}${field}${span}${node.children.length > 0 ? `(${node.children.map(render).join(' ')})` : ''}`;
}

/** The lines (up to 5 shown) on which the shortcut answered something other than tree-sitter's tree. */
function differences(lines: readonly string[]): { accepted: number; wrong: { line: string; fast: string; parsed: string }[] } {
  let accepted = 0;
  const wrong: { line: string; fast: string; parsed: string }[] = [];
  for (const line of lines) {
    const fast = simpleSyntaxTree(line);
    if (fast === undefined) continue;
    accepted++;
    const parsed = treeSitter(line);
    if (JSON.stringify(fast) !== JSON.stringify(parsed) && wrong.length < 5) wrong.push({ line, fast: render(fast), parsed: render(parsed) });
  }
  return { accepted, wrong };
}

test.each([1, 2, 3])('generated plain lines (seed %i): every tree the shortcut gives is tree-sitter\'s', (seed) => {
  const { plain } = generator(seed);
  const lines = Array.from({ length: 2500 }, plain);
  const { accepted, wrong } = differences(lines);
  expect(wrong).toEqual([]);
  // Not vacuous: most of these lines are taken (the rest have an odd word where a name goes).
  expect(accepted).toBeGreaterThan(lines.length * 0.5);
});

test.each([7, 8])('generated lines of every shape (seed %i): every tree the shortcut gives is tree-sitter\'s', (seed) => {
  const { wide } = generator(seed);
  const { wrong } = differences(Array.from({ length: 2500 }, wide));
  expect(wrong).toEqual([]);
});

test.each([4, 5, 6])('mutated lines (seed %i): every tree the shortcut gives is tree-sitter\'s', (seed) => {
  const { plain, mutate } = generator(seed);
  const lines = Array.from({ length: 2500 }, () => {
    let text = plain();
    const times = 1 + Math.floor((seed * 7 + text.length) % 3);
    for (let i = 0; i < times; i++) text = mutate(text);
    return text;
  });
  const { accepted, wrong } = differences(lines);
  expect(wrong).toEqual([]);
  expect(accepted).toBeGreaterThan(100);
});

test('the lines models send first are taken', () => {
  for (const line of [
    'echo ping',
    'ls -la',
    'git status',
    'pwd',
    'npm test 2>&1 | tail -20',
    'cd src && ls -la | head -20',
    'grep -rn "TODO" src/ | head',
    "find . -name '*.ts' -not -path './node_modules/*' | wc -l",
    'git log --oneline -5; git diff --stat',
    'cat package.json > /dev/null 2>&1 || echo missing',
  ]) {
    const fast = simpleSyntaxTree(line);
    expect({ line, fast: fast === undefined ? 'declined' : 'taken' }).toEqual({ line, fast: 'taken' });
    expect({ line, tree: fast }).toEqual({ line, tree: treeSitter(line) });
  }
});

test('anything outside the plain language goes to the parser', () => {
  const declined = [
    'echo $HOME', 'echo "a $b"', 'echo `id`', 'echo $(id)', 'echo "a`b`"', 'echo "a\\"b"', 'echo a\\ b', "echo $'x'",
    'ls &', 'ls & pwd', 'ls |& cat', 'ls &> f', 'ls >| f', 'ls > >(cat)', 'cat < f', 'cat <<EOF\nx\nEOF', 'cat <<< x', 'diff <(a) <(b)',
    'a=b c', 'a=b', 'A+=1 c', 'if true; then ls; fi', 'for f in a; do echo $f; done', 'while true; do :; done', 'case x in a) ;; esac',
    'f() { rm -rf ~; }', 'function f { :; }', '(ls)', '{ ls; }', '! ls', 'ls\npwd', 'ls \\\n -la', 'echo {a,b}', 'echo a#b', 'ls # comment',
    "echo --x='a'", 'echo "a"b', "echo 'a'\"b\"", 'echo [abc]', '[ -f x ]', '[[ -f x ]]', '((x++))', 'declare -i x=1', 'export A=b', 'local x',
    'readonly x', 'unset x', 'test -f x', 'time ls', 'echo a;; b', 'ls;&', 'ls ; ; pwd', '; ls', 'ls &&', 'ls |', '| ls', '&& ls',
    'ls > ', 'ls >', 'ls 2>', 'ls >&', 'ls >&x', 'ls 2>&12', 'ls > 1', 'ls >2>f', 'ls a1>f', 'ls > f arg', 'echo é', 'echo "é"x', '',
    '   ', 'echo "unterminated', "echo 'unterminated", '1x y', '-x y', '~/bin/tool', 'echo !!', 'ls\r', 'x'.repeat(5000),
  ];
  for (const line of declined) expect({ line, tree: simpleSyntaxTree(line) }).toEqual({ line, tree: undefined });
});
