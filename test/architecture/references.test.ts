/**
 * Everything the code and the documentation refer to is in the repository: a behaviour id cited
 * in a code comment or a Markdown file (`K3`, `A15`, a range `H2–H7`) is a heading of
 * docs/behaviours.md; a repository path (`kernel/plugin-lifecycle.ts`, `bin/mewcode.js`), a
 * Markdown file (`ARCHITECTURE.md`, `kernel.md`), a section quoted after one
 * (`docs/kernel.md, "Idle warm-up"`) and a Markdown link with its anchor exist; nothing cites a
 * document that is not here (a behaviour specification, design notes or reference files kept
 * outside the checkout). What is checked, and how: ./reference-checks.ts. Comments are read with
 * TypeScript's own parser, so code and string contents are not mistaken for them; test fixtures
 * are data, not documentation, and are not read.
 *
 * BENCHMARKS.md is a log: an entry may tell what a file since removed did. It names such a file
 * without its folder (`program-loader.js`, under a note saying what was removed and when), so the
 * name reads as history, not as a path to open. A Markdown document is never named that way: its
 * bare name is looked for like any other.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TOKENS } from '../../types/tokens.js';
import { ROOT, definedIds, fileProblems, idProblems, prose } from './reference-checks.js';

test('docs/behaviours.md defines the behaviour ids', () => {
  expect(definedIds().size).toBeGreaterThan(50);
  expect(definedIds()).toContain('K1');
});

test('code comments and Markdown cite only behaviour ids defined in docs/ and files that exist', () => {
  const problems: string[] = [];
  for (const { file, line, text, next } of prose()) {
    for (const problem of [...idProblems(text), ...fileProblems(file, text, next)]) problems.push(`${file}:${line}: ${problem}`);
  }
  expect(problems).toEqual([]);
}, 60_000);

test.each([
  ['kernel/kernel.ts', '// the loader (bin/program-loader.js) is gone', 'bin/program-loader.js does not exist'],
  ['README.md', 'the front end in api/no-such-module.ts', 'api/no-such-module.ts does not exist'],
  ['README.md', 'see docs/kernel.md "No Such Section"', 'docs/kernel.md has no section "No Such Section"'],
  ['plugins/tool-bash/settings.ts', ' * which loads it only then (ARCHITECTURE.md "Start-up").', 'ARCHITECTURE.md has no section "Start-up"'],
  ['README.md', 'a [link with a title](missing.md "Title")', 'link missing.md (from README.md) does not exist'],
  ['README.md', '[ref]: ./missing.md', 'link ./missing.md (from README.md) does not exist'],
  ['kernel/kernel.ts', '// as design-notes.md explains', 'design-notes.md is not in the repository'],
  ['README.md', '[anchor](docs/kernel.md#no-such-heading)', 'docs/kernel.md has no heading with the anchor #no-such-heading'],
  ['sdk/linear-regex/index.ts', ' * at most linearly (sdk/search-common/gitignore-glob.ts, picomatch-test.ts).', 'picomatch-test.ts is neither beside sdk/linear-regex/index.ts nor anywhere'],
  ['README.md', 'the checks live in no-such-checks.mjs', 'no-such-checks.mjs is neither beside README.md nor anywhere'],
  ['plugins/permission-sandbox/sandbox.ts', " * The resolution is kernel/path-containment's resolveReal", 'kernel/path-containment is neither a folder nor a module'],
  ['README.md', 'the loop in kernel/no-such-loop runs it', 'kernel/no-such-loop is neither a folder nor a module'],
])('a dangling reference is reported: %s %j', (file, text, problem) => {
  expect(fileProblems(file, text).join('\n')).toContain(problem);
});

test('a section quoted across two lines is checked whole', () => {
  expect(fileProblems('README.md', 'see docs/kernel.md, "No Such', 'Section" for the rules')).toEqual(['docs/kernel.md has no section "No Such Section" (a heading or a bold paragraph head)']);
  expect(fileProblems('README.md', 'see docs/kernel.md, "Idle', 'warm-up" for the rules')).toEqual([]);
});

test.each([
  ['kernel/kernel.ts', '// the contract (types/plugin.js, built from types/plugin.ts)'],
  ['README.md', 'ARCHITECTURE.md "Speed: the deliberate mechanisms" → "Load on first use"'],
  ['types/config.ts', ' * merge rules per section in docs/kernel.md, "Configuration"'],
  ['README.md', '[kernel](docs/kernel.md "Kernel internals"), [flows](ARCHITECTURE.md#how-a-request-flows)'],
  ['README.md', '[ref]: ./docs/kernel.md'],
  ['README.md', '`.ci/run` runs `npm run test:all`'],
  ['sdk/linear-regex/index.ts', ' * (sdk/search-common/gitignore-glob.ts, picomatch.ts)'],
  ['README.md', 'checked by boundaries.test.ts and bundle.mjs'],
  ['README.md', 'the contract in types/plugin, the UI in plugins/ui-tui, the tests in test/architecture'],
])('a reference that exists is not reported: %s %j', (file, text) => {
  expect(fileProblems(file, text)).toEqual([]);
});

test('docs/plugin-contract.md lists every TOKENS entry', () => {
  const contract = readFileSync(path.join(ROOT, 'docs/plugin-contract.md'), 'utf8');
  const listed = new Set([...contract.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]));
  expect(Object.keys(TOKENS).filter((name) => !listed.has(name))).toEqual([]);
});

test('ARCHITECTURE.md stays an overview (at most 15,000 bytes); the detail belongs in docs/ and BENCHMARKS.md', () => {
  expect(readFileSync(path.join(ROOT, 'ARCHITECTURE.md')).length).toBeLessThanOrEqual(15_000);
});
