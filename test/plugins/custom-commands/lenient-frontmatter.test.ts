/**
 * Command files whose frontmatter strict YAML rejects load through the custom-commands loader as
 * Claude Code loads them; one even the lenient reader cannot read is skipped naming file:line.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createWorkspaceTrust } from '../../../config/index.js';
import { commandRoots, loadCommandFiles } from '../../../plugins/custom-commands/command-file.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

test('a description with an unquoted ": " and lines of its own, a - item tool list; a broken file named by line', async () => {
  const root = temp('lenient-commands-root-');
  const home = temp('lenient-commands-home-');
  const dir = path.join(root, '.claude', 'commands');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'review.md'), '---\ndescription: Review: the diff, then\n  the tests\nargument-hint: [pr] [focus]\nallowed-tools:\n  - Bash(git diff:*)\n  - Read\nmodel: sonnet\n---\nReview $0.\n');
  writeFileSync(path.join(dir, 'twice.md'), '---\ndescription: Deploy: now\ndescription: later\n---\nDeploy.\n');
  // Untrusted, the project's allowed-tools pre-approve nothing, and a warning names the file.
  const untrustedWarnings: string[] = [];
  const untrusted = await loadCommandFiles(commandRoots(home, root), (message) => untrustedWarnings.push(message), await createWorkspaceTrust({ projectRoot: root, homeDir: home }));
  expect(untrusted[0]).toMatchObject({ name: 'review', allowedTools: [] });
  expect(untrustedWarnings).toContain(`custom commands: ${path.join(dir, 'review.md')}: its allowed-tools (Bash(git diff:*), Read) pre-approve nothing until this project is trusted with the file as it is now (the trust notice lists it); the command runs without them`);
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  await trust.grant();
  const warnings: string[] = [];
  const loaded = await loadCommandFiles(commandRoots(home, root), (message) => warnings.push(message), await createWorkspaceTrust({ projectRoot: root, homeDir: home }));
  expect(loaded.map((c) => c.name)).toEqual(['review']);
  expect(loaded[0]).toMatchObject({ description: 'Review: the diff, then\nthe tests', argumentHint: '[pr] [focus]', allowedTools: ['Bash(git diff:*)', 'Read'], model: 'sonnet', body: 'Review $0.\n' });
  expect(warnings).toEqual([`custom commands: ${path.join(dir, 'twice.md')}:3: invalid YAML in the frontmatter: description is given twice (lines 2 and 3), and YAML cannot read it either (line 2: Nested mappings are not allowed in compact mappings); skipped`]);
});

test('disable-model-invocation in every spelling Claude Code accepts; any other value keeps the default with a warning naming file:line and the key', async () => {
  const root = temp('bool-commands-root-');
  const home = temp('bool-commands-home-');
  const dir = path.join(home, '.claude', 'commands');
  mkdirSync(dir, { recursive: true });
  const spellings: Record<string, boolean> = { yes: true, On: true, '1': true, 'true': true, no: false, off: false, '0': false, 'False': false };
  for (const [word] of Object.entries(spellings)) writeFileSync(path.join(dir, `c-${word.toLowerCase()}.md`), `---\ndescription: d\ndisable-model-invocation: ${word}\n---\nBody\n`);
  writeFileSync(path.join(dir, 'maybe.md'), '---\ndescription: d\n\ndisable-model-invocation: maybe\n---\nBody\n');
  const warnings: string[] = [];
  const loaded = await loadCommandFiles(commandRoots(home, root), (message) => warnings.push(message), undefined);
  const byName = Object.fromEntries(loaded.map((c) => [c.name, c.disableModelInvocation]));
  for (const [word, value] of Object.entries(spellings)) expect([word, byName[`c-${word.toLowerCase()}`]]).toEqual([word, value]);
  expect(byName.maybe).toBe(false);
  expect(warnings).toEqual([`custom commands: ${path.join(dir, 'maybe.md')}:4: disable-model-invocation: "maybe" is not a yes/no value (true/false, yes/no, on/off, 1/0); using false`]);
});

test('argument-hint shows as written: `[message]`, which YAML reads as a list, keeps its brackets', async () => {
  const root = temp('hint-commands-root-');
  const home = temp('hint-commands-home-');
  const dir = path.join(home, '.claude', 'commands');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'commit.md'), '---\ndescription: d\nargument-hint: [message]\n---\nBody\n');
  writeFileSync(path.join(dir, 'two.md'), '---\ndescription: d\nargument-hint: [pr, priority]\n---\nBody\n');
  const loaded = await loadCommandFiles(commandRoots(home, root), () => undefined, undefined);
  expect(Object.fromEntries(loaded.map((c) => [c.name, c.argumentHint]))).toEqual({ commit: '[message]', two: '[pr, priority]' });
});
