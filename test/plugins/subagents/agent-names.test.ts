/** An agent's `name` with capitals or spaces is loaded under a normalised name with a warning, as a skill's is. */
import { frontmatterReady } from '../../../sdk/frontmatter.js';
import { parseDefinition } from '../../../plugins/subagents/definitions.js';

beforeAll(() => frontmatterReady());

test('"Test Runner" is loaded as test-runner, saying so with file:line; a valid name is kept as written', () => {
  const parsed = parseDefinition('/a/runner.md', '---\ndescription: Runs the tests\nname: Test Runner\n---\nRun them.\n');
  expect(parsed).toMatchObject({ role: { name: 'test-runner', description: 'Runs the tests' } });
  expect('warnings' in parsed && parsed.warnings).toEqual([`subagents: /a/runner.md:3: name "Test Runner" is not a valid agent name (letters, digits, '.', '_', '-'); loaded as "test-runner"`]);
  expect(parseDefinition('/a/x.md', '---\nname: Code.Reviewer_2\n---\nP\n')).toMatchObject({ role: { name: 'Code.Reviewer_2' }, warnings: [] });
});

test('a name with nothing usable left is still an error naming file:line', () => {
  expect(parseDefinition('/a/x.md', '---\nname: "!!!"\n---\nP\n')).toEqual({ error: `/a/x.md:2: name: must be letters, digits, '.', '_' or '-' (got "!!!")` });
});
