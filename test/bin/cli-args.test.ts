/** The command line: rule lists, Claude Code's flags, and what counts as "given". */
import { parseCommandLine, splitRuleList } from '../../bin/cli-args.js';

test('rule lists split on commas and spaces outside parentheses, and repeat', () => {
  expect(splitRuleList(['Bash(git log:*),Read', 'Edit Bash(npm run test:*)'])).toEqual(['Bash(git log:*)', 'Read', 'Edit', 'Bash(npm run test:*)']);
  expect(splitRuleList(['Bash(echo a, b)'])).toEqual(['Bash(echo a, b)']);
  expect(splitRuleList([' , '])).toEqual([]);
});

test('-p with flags Claude Code scripts pass; the permission mode records whether it was given', () => {
  const parsed = parseCommandLine(['-p', 'hi', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read,Bash(ls)'], '/work');
  expect(parsed).toMatchObject({ kind: 'run', options: { prompt: 'hi', outputFormat: 'stream-json', permissionMode: 'default', permissionModeGiven: false, allowedTools: ['Read', 'Bash(ls)'], disallowedTools: [] } });
  expect(parseCommandLine(['-p', 'x', '--permission-mode', 'plan'], '/')).toMatchObject({ options: { permissionMode: 'plan', permissionModeGiven: true } });
});

test('a bad flag is an error naming it, without parseArgs\' advice about "--"', () => {
  expect(parseCommandLine(['--bogus'], '/')).toEqual({ kind: 'error', message: "Unknown option '--bogus'. Run mewcode --help for the options." });
});
