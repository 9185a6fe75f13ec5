/**
 * Which project paths are pasted into a `!` line as they are: one word, nothing a shell expands.
 * Any other stays `${CLAUDE_PROJECT_DIR}` for the shell to expand from the environment.
 */
import { isShellInert } from '../../../types/claude-plugins.js';

test.each(['/home/me/src/app', '/srv/my-app_2.0/x+y@z%1', '/a/b=c,d:e'])('%s is pasted', (path) => {
  expect(isShellInert(path)).toBe(true);
});

test.each([
  ['a space (word splitting: `a --output=/x` adds an option)', '/tmp/a --output=/x'],
  ['a command substitution', '/tmp/x$(touch pwned)'],
  ['backticks', '/tmp/x`id`'],
  ['a quote', "/tmp/it's"],
  ['a glob', '/tmp/*'],
  ['a line break', '/tmp/x\n!`id`'],
  ['a semicolon', '/tmp/x;id'],
])('a path with %s is not', (_what, path) => {
  expect(isShellInert(path)).toBe(false);
});
