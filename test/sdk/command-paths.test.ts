/** The files a shell command text runs (sdk/command-paths.ts), as git hooks and git's configuration spell them. */
import { atTheTop, commandPaths, shellCommands } from '../../sdk/command-paths.js';

test.each([
  ['./scripts/lint.sh', ['./scripts/lint.sh']],
  ['sh tools/check.sh --fast', ['tools/check.sh']],
  ['bash -c "cd tools && ./x"', ['tools/x']],
  ["sh -c './x.sh'", ['./x.sh']],
  ['node -r ./x.js y.js', ['./x.js', 'y.js']],
  ['node --input-type module ./c.mjs', ['./c.mjs']],
  ['python3 -Im pkg.mod', ['pkg.py', 'pkg.pyc', 'pkg/__init__.py', 'pkg/__main__.py']],
  ['X=1 env ./bin/run', ['./bin/run']],
  ['if [ -x ./a ]; then ./b; fi', ['./b']],
  ['python3 tools/x.py # a comment ./not/this\nsh "my tools/a b.sh"', ['tools/x.py', 'my tools/a b.sh']],
  ['. scripts/env.sh && source ./more.sh', ['scripts/env.sh', './more.sh']],
  ['cd sub && sh run.sh; cd - && ./top.sh', ['sub/run.sh', './top.sh']],
  // A subshell's cd ends with it; after a cd to a place not known, relative paths name nothing known.
  ['HOOK_DIR=$(cd "$(dirname "$0")" && pwd)\n./scripts/lint.sh', ['./scripts/lint.sh']],
  ['(cd frontend && npx lint-staged); ./scripts/x.sh', ['./scripts/x.sh']],
  ['cd "$HOME" && ./x.sh', []],
  ['bun run build && bun x.ts', ['x.ts']],
  ['deno task check', []],
  // A red team's spellings.
  ['2>/dev/null sh x.sh', ['x.sh']],
  ['timeout 10 sh x.sh', ['x.sh']],
  ['timeout -s KILL 5s ./y', ['./y']],
  ['deno run --allow-all x.ts', ['x.ts']],
  ['bun run x.ts', ['x.ts']],
  ['python3 -I x.py', ['x.py']],
  ['node --env-file .env x.js', ['x.js']],
  ['env -C tools ./x', ['tools/x']],
  ['env -u HOME -S "sh scripts/s.sh"', ['scripts/s.sh']],
  ['bash < scripts/x.sh', ['scripts/x.sh']],
  ['sed -f x.sed -i a.txt', ['x.sed']],
  ['awk -f tools/x.awk data', ['tools/x.awk']],
  ['run-parts --verbose scripts/hooks.d', ['scripts/hooks.d']],
  ['ruby -r ./boot.rb main.rb', ['./boot.rb', 'main.rb']],
])('%j runs %j', (text, expected) => {
  expect(commandPaths(text)).toEqual(expected);
});

test.each([
  'npx lint-staged',
  'eslint src/ --fix',
  'make -C tools',
  'exec "$INSTALL_PYTHON" -mpre_commit "${ARGS[@]}"',
  '. "$(dirname "$0")/_/husky.sh"',
  'python3 -c "import tools.x"',
  'node -e "require(\'./x\')"',
  'sh "$s" "$@"',
  'git commit -m fixup',
])('%j names no file it runs', (text) => {
  expect(commandPaths(text).filter((file) => !file.startsWith('/'))).toEqual([]);
});

test('words as a shell splits them: quotes removed and joined, escapes, comments, separators', () => {
  expect(shellCommands(`a 'b c'"d"e\\ f # g\nh;i&&j|k`)).toEqual([['a', 'b cde f'], ['h'], ['i'], ['j'], ['k']]);
});

test("the work tree's top as commands spell it is read as the top", () => {
  expect(commandPaths(atTheTop('"$(git rev-parse --show-toplevel)"/scripts/lint.sh && sh $PWD/a.sh && ${PWD}/b && $(pwd)/c'))).toEqual(['./scripts/lint.sh', './a.sh', './b', './c']);
});
