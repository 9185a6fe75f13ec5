/**
 * sdk/git-config-syntax.ts reads a configuration file as git does: each spelling here, written to
 * a file, is read by `git config --file F --no-includes --list -z` (the git on this machine) and
 * by MewCode, and both must see the same keys and values, in order, and agree on whether git
 * refuses the file (then on the entries git read before it stopped). Hand-picked spellings that
 * hid a key from an earlier reader come first, then many generated ones.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseGitConfig, readGitConfig, type GitConfigEntry } from '../../sdk/git-config-syntax.js';
import { seededRandom } from '../support/seeded-random.js';

let dir: string;
beforeAll(() => {
  dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-gitcfg-')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Reading {
  entries: GitConfigEntry[];
  refused: boolean;
}

/** Nothing of the machine's or the user's configuration, and no repository around. */
const gitEnv = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CEILING_DIRECTORIES: path.dirname(dir) });

/** `git config --list -z` output (`--show-origin` adds a `file:<path>` record before each entry) as entries. */
function records(out: Buffer, origins: boolean): { origin?: string; entry: GitConfigEntry }[] {
  const parts = out.toString('utf8').split('\0').slice(0, -1);
  const found: { origin?: string; entry: GitConfigEntry }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const origin = origins ? parts[i++]!.replace(/^file:/, '') : undefined;
    // `key\nvalue`, or `key` alone for a key without a value; keys never hold a newline.
    const record = parts[i]!;
    const nl = record.indexOf('\n');
    found.push({ origin, entry: nl === -1 ? { key: record, value: null } : { key: record.slice(0, nl), value: record.slice(nl + 1) } });
  }
  return found;
}

/**
 * Git's own readings of `files`. One git process reads them all through include.path lines
 * (starting one process per file is slow); where git refuses one it stops, and the next process
 * starts after it.
 */
function gitReads(files: string[]): Map<string, Reading> {
  const env = gitEnv();
  const readings = new Map<string, Reading>();
  let rest = files;
  while (rest.length > 0) {
    const main = path.join(dir, 'main');
    writeFileSync(main, `[include]\n${rest.map((file) => `\tpath = ${file}\n`).join('')}`);
    let out: Buffer;
    let refusedFile: string | undefined;
    try {
      out = execFileSync('git', ['config', '--file', main, '--includes', '--show-origin', '--list', '-z'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env });
    } catch (error) {
      const failed = error as { stdout?: Buffer; stderr?: Buffer };
      refusedFile = /bad config line \d+ in file (.*)/.exec(failed.stderr?.toString() ?? '')?.[1];
      if (refusedFile === undefined || !rest.includes(refusedFile)) throw error;
      out = failed.stdout ?? Buffer.alloc(0);
    }
    const upTo = refusedFile === undefined ? rest.length : rest.indexOf(refusedFile) + 1;
    for (const file of rest.slice(0, upTo)) readings.set(file, { entries: [], refused: file === refusedFile });
    for (const { origin, entry } of records(out, true)) if (origin !== main) readings.get(origin!)!.entries.push(entry);
    rest = rest.slice(upTo);
  }
  return readings;
}

let count = 0;
/** Each content written to a file, read by MewCode (from the file's text as the callers read it, utf8) and by git. */
function readings(contents: (string | Buffer)[]): { git: Reading; ours: Reading }[] {
  const files = contents.map((content) => {
    const file = path.join(dir, `c${count++}`);
    writeFileSync(file, content);
    return file;
  });
  const ours = files.map((file): Reading => {
    const read = readGitConfig(readFileSync(file, 'utf8'));
    return { entries: read.entries, refused: read.refused !== undefined };
  });
  // A file with include lines of its own is read alone, without following them, as git would otherwise.
  const alone = new Set(files.filter((_, i) => ours[i]!.entries.some((e) => e.key === 'include.path' || /^includeif\..*\.path$/.test(e.key))));
  const git = gitReads(files.filter((file) => !alone.has(file)));
  for (const file of alone) git.set(file, gitReadsAlone(file));
  return files.map((file, i) => ({ git: git.get(file)!, ours: ours[i]! }));
}

function gitReadsAlone(file: string): Reading {
  const env = gitEnv();
  try {
    const out = execFileSync('git', ['config', '--file', file, '--no-includes', '--list', '-z'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env });
    return { entries: records(out, false).map((r) => r.entry), refused: false };
  } catch (error) {
    const failed = error as { stdout?: Buffer; stderr?: Buffer };
    if (!/bad config line/.test(failed.stderr?.toString() ?? '')) throw error;
    return { entries: records(failed.stdout ?? Buffer.alloc(0), false).map((r) => r.entry), refused: true };
  }
}

const both = (content: string | Buffer): { git: Reading; ours: Reading } => readings([content])[0]!;

function expectSame(content: string | Buffer): Reading {
  const { git, ours } = both(content);
  expect({ content: content.toString(), ...ours }).toEqual({ content: content.toString(), ...git });
  return ours;
}

const fsmonitor = (reading: Reading): string[] => reading.entries.filter((e) => e.key === 'core.fsmonitor').map((e) => String(e.value));

describe('spellings that hid core.fsmonitor from a line-joining reader', () => {
  test.each([
    ['a # comment line ending in a backslash', '[core]\n\t# harmless \\\n\tfsmonitor = "echo PWNED; true"\n'],
    ['a ; comment line ending in a backslash', '[core]\n; x \\\nfsmonitor = evil\n'],
    ['a comment after a value ending in a backslash', '[core]\n\tname = x # \\\n\tfsmonitor = evil\n'],
    ['a ; comment after a value ending in a backslash', '[core]\n\tname = y ; \\\nfsmonitor = evil\n'],
    ['a comment after a section header ending in a backslash', '[core] # c \\\nfsmonitor = evil\n'],
    ['a ; comment after a header, after another section', '[core]\nfoo = a\n[core] ; \\\nfsmonitor = evil\n'],
    ['lone carriage returns as line ends', '[core]\r\tfsmonitor = evil\r'],
    ['the key on the header line', '[core] fsmonitor = evil\n'],
    ['CR LF line ends with a comment ending in a backslash', '[core]\r\n# x \\\r\nfsmonitor = evil\r\n'],
    ['a byte order mark first', '\uFEFF[core]\nfsmonitor = evil\n'],
    ['a NUL in the subsection ends git\'s key there', '[core "fsmonitor\0"]\n\tx = evil\n'],
    ['upper-case section and key', '[CoRe]\n\tFsMonitor = evil\n'],
  ])('%s: git and MewCode both read core.fsmonitor', (_name, content) => {
    expect(fsmonitor(expectSame(content))).toEqual([expect.stringMatching(/evil|PWNED/)]);
  });
});

test('a value continued over lines inside quotes is one value, not a key', () => {
  expect(expectSame('[core]\n\tname = "x \\\nfsmonitor = evil"\n').entries).toEqual([{ key: 'core.name', value: 'x fsmonitor = evil' }]);
});

test.each([
  ['an unterminated quote', '[core]\n\tname = "x\n\tfsmonitor = evil\n'],
  ['an unknown escape', '[core]\n\tname = a\\qb\n'],
  ['a comment after a key with no =', '[core]\n\tfsmonitor # c\n'],
  ['a space after a subsection', '[core "x" ]\nk = v\n'],
  ['an empty section', '[]\nk = v\n'],
  ['a key starting with a digit', '[core]\n1k = v\n'],
  ['an underscore in a key', '[core]\nk_1 = v\n'],
  ['an unclosed header at the end', '[core'],
  ['a newline in a subsection', '[core "x\\\n"]\nk = 1\n'],
  ['a vertical tab or form feed between lines', '[core]\vk = 1\n'],
  ['CR CR LF after a bare key', '[core]\nk\r\r\n'],
  ['a NUL in a key', '[core]\nk\0 = v\n'],
  ['a second byte order mark', '\uFEFF\uFEFF[core]\nk = v\n'],
  ['a lone backslash outside a value', '[core]\n\\\nfsmonitor = evil\n'],
])('git refuses %s, and so does MewCode, keeping what git read before', (_name, content) => {
  expect(expectSame(content).refused).toBe(true);
});

test('raw bytes: a partial byte order mark is refused; a stray byte in a value or a comment is kept', () => {
  expect(expectSame(Buffer.from([0xef, 0xbb, ...Buffer.from('[core]\nk = 1\n')])).refused).toBe(true);
  expect(expectSame(Buffer.concat([Buffer.from('[core]\n# '), Buffer.from([0xff]), Buffer.from('\nk = a'), Buffer.from([0xff]), Buffer.from(' b\n')])).refused).toBe(false);
});

test('values: quotes, escapes, trailing and leading space, comments, continuations and bare keys, as git has them', () => {
  const content =
    '[core]\n\ta = "  x  " y  \n\tb = \\"q\\" \\\\ \\t\\n\\b end\n\tc = one \\\n two ; c\n\td\n\te =\n\tf = ""\n\tg = x\\\n\n\th = a "#" b # c\n\ti = a \\\n\tj = v\0w\n\tk = v\0w\n';
  expect(expectSame(content).entries.map((e) => e.key)).toEqual(['core.a', 'core.b', 'core.c', 'core.d', 'core.e', 'core.f', 'core.g', 'core.h', 'core.i', 'core.k']);
});

test('sections: subsections with escapes, the deprecated dotted form (lower-cased whole), a key before any section', () => {
  const content = 'top = 1\n[Sec "Sub \\"q\\" \\\\ \\n"]\nk = 1\n[Sec.Sub]\nk = 2\n[a.b.c]\nk = 3\n[x "."]\nk = 4\n[core ""]\nk = 5\n[c-x]\nk = 6\n[ \t"s"]k=7\n';
  expect(expectSame(content).entries.map((e) => e.key)).toEqual(['top', 'sec.Sub "q" \\ n.k', 'sec.sub.k', 'a.b.c.k', 'x...k', 'core..k', 'c-x.k', '.s.k']);
});

test('parseGitConfig: a value-less key reads "true"; the line git refuses is reported', () => {
  const unparsed: string[] = [];
  expect(parseGitConfig('[core]\n\tbare = true\n\tflag\n\tname = "x\n\tfsmonitor = evil\n', unparsed)).toEqual([
    { key: 'core.bare', value: 'true' },
    { key: 'core.flag', value: 'true' },
  ]);
  expect(unparsed).toEqual(['\tname = "x']);
});

const random = seededRandom;

/**
 * Configuration texts built from pieces in every position: headers (dotted, quoted with escapes,
 * with a key or a comment after them), keys with and without values, values with quotes,
 * escapes, comments and continuations, comment lines ending in a backslash, CR LF, lone CRs, tabs,
 * \v and \f, NUL bytes, byte order marks. Each piece is usually one git accepts, so that most files
 * are read through, and now and then one it refuses.
 */
function generator(seed: number): () => string {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const some = (make: () => string, most: number): string => Array.from({ length: Math.floor(next() * (most + 1)) }, make).join('');
  /** Usually `good`, one time in `odds` `bad`. */
  const usually = (good: () => string, bad: () => string, odds = 100): string => (next() * odds < 1 ? bad() : good());
  const space = (): string => some(() => usually(() => pick([' ', '\t', ' ', '\r']), () => pick(['\v', '\f'])), 2);
  // A lone CR is a space to git: after a value or a comment it joins the next line, after a bare key it is refused.
  const eol = (): string => usually(() => pick(['\n', '\n', '\r\n', '\n\n']), () => pick(['\r', '\r\r\n']), 16);
  const commentText = (): string => some(() => pick(['x', ' ', '\\', '"', '#', ';', '[core]', '=', '\0', '\t', 'é', '\r', 'fsmonitor = evil']), 4);
  const comment = (): string => pick(['#', ';']) + commentText() + pick(['', '', '\\', ' \\']);
  const word = (): string => pick(['core', 'Core', 'CORE', 'user', 'a-b', 'includeIf', 'x1', 'fsmonitor', 'hooksPath', 'sshCommand', 'K']);
  const subChar = (): string => usually(() => pick(['s', 'S', ' ', '.', '\\"', '\\\\', '\\x', '\\n', '\0', '\t', 'é', ']', '#', ';', '=', '\r', '[']), () => pick(['"', '\\\n', '\n']));
  const header = (): string => {
    const name = usually(() => pick([word(), `${word()}.${word()}`, `${word()}.`, `.${word()}`, `${word()}.${word()}.${word()}`]), () => pick(['', 'a_b', 'x y', 'é']));
    const sub = next() < 0.5 ? pick([' ', '\t', '  ', ' \r']) + '"' + some(subChar, 5) + usually(() => '"', () => '') : '';
    const close = usually(() => ']', () => pick([' ]', '', '\n]']));
    const after = pick(['', '', '', space(), `${space()}${comment()}`, `${space()}${word()} = x`, `${space()}${word()}`]);
    return `${usually(() => '[', () => '[ ')}${name}${sub}${close}${after}`;
  };
  const valueChar = (): string =>
    usually(
      () => pick(['x', 'evil', ' ', '  ', '\t', '\\"', '\\\\', '\\n', '\\t', '\\b', '#', ';', '=', '[', ']', '\r', '\0', 'é', '\v', '\f', '\\\n', '\\\r\n', ' \\\n ', '\uFEFF']),
      () => pick(['\\q', '\\', '"', '\\ ']),
    );
  const quoted = (): string => `"${some(() => pick(['x', ' ', '#', ';', '\\"', '\\\\', '\\n', '\t', '\\\n', '\r', '\0']), 4)}"`;
  const value = (): string => some(() => (next() < 0.2 ? quoted() : valueChar()), 6) + pick(['', '', '', `${space()}${comment()}`]);
  const entry = (): string => {
    const key = usually(() => pick([word(), word(), `${word()}-2`, `${word()}9`]), () => pick(['2x', 'k_1', '-k', 'k.x']));
    const tail = usually(() => pick(['', ' ', '\t', ' \t']), () => pick(['\r', '\v']));
    return space() + key + tail + (next() < 0.85 ? pick(['=', ' = ', '=\t', '= ']) + value() : usually(() => '', () => ` ${comment()}`));
  };
  const line = (): string => pick([header, header, entry, entry, entry, entry, comment, space, () => `${space()}${comment()}`])();
  return () => {
    let text = usually(() => pick(['', '', '', '\uFEFF']), () => '\uFEFF\uFEFF');
    const lines = 1 + Math.floor(next() * 7);
    for (let i = 0; i < lines; i++) text += line() + (i < lines - 1 || next() < 0.7 ? eol() : '');
    return text;
  };
}

test('generated spellings: MewCode reads every one as git does', () => {
  const make = generator(20240611);
  const contents = Array.from({ length: 1000 }, make);
  const mismatches: string[] = [];
  let accepted = 0;
  readings(contents).forEach(({ git, ours }, i) => {
    if (!git.refused) accepted++;
    if (JSON.stringify(git) !== JSON.stringify(ours)) mismatches.push(`${JSON.stringify(contents[i])}\n  git:  ${JSON.stringify(git)}\n  ours: ${JSON.stringify(ours)}`);
  });
  expect(mismatches.slice(0, 5)).toEqual([]);
  // The generator is no use if git refuses nearly all it makes.
  expect(accepted).toBeGreaterThan(700);
}, 120_000);
