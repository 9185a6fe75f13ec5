/**
 * A typical Claude Code settings file names tools MewCode has no counterpart for (WebFetch,
 * WebSearch, NotebookEdit…): such rules take nothing away and allow nothing, and start-up says
 * nothing about them (the one decision shared with sub-agent tool lists: isClaudeOnlyTool).
 * MultiEdit (several edits in one call) is one of them: edit_file makes one edit per call, so a
 * MultiEdit deny does not take editing away (Edit rules cover edit_file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isClaudeOnlyTool } from '../../../sdk/claude-tool-names.js';
import { bootRules, edit, outcome, tempDirs, warnings, type Dirs } from './helpers.js';

let dirs: Dirs;
beforeEach(() => {
  dirs = tempDirs();
});
afterEach(() => dirs.cleanup());

const claudeUser = (permissions: unknown) => {
  const file = path.join(dirs.home, '.claude', 'settings.json');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify({ permissions }));
};

test("Claude Code's own tools (WebFetch(domain:…), WebSearch, NotebookEdit…) produce no warning at start", async () => {
  claudeUser({
    allow: ['WebFetch(domain:github.com)', 'WebFetch(domain:docs.python.org)', 'WebSearch', 'NotebookEdit', 'BashOutput'],
    deny: ['NotebookRead', 'KillShell'],
  });
  const { reporter } = await bootRules(dirs);
  expect(warnings(reporter).filter((w) => w.includes('WebFetch') || w.includes('WebSearch') || w.includes('Notebook') || w.includes('names no known tool'))).toEqual([]);
});

test('a typo is still reported, naming the file and the rule', async () => {
  claudeUser({ deny: ['WebFetchh'] });
  const { reporter } = await bootRules(dirs);
  expect(warnings(reporter).find((w) => w.includes('"WebFetchh" names no known tool'))).toContain(path.join(dirs.home, '.claude', 'settings.json'));
});

test('MultiEdit is no edit_file: its deny takes no editing away, and says nothing', async () => {
  claudeUser({ deny: ['MultiEdit', 'MultiEdit(src/**)'] });
  const { kernel, reporter } = await bootRules(dirs);
  expect(await outcome(edit(kernel, path.join(dirs.root, 'src', 'a.ts')))).not.toBe('deny');
  expect(warnings(reporter).filter((w) => w.includes('MultiEdit'))).toEqual([]);
  expect(isClaudeOnlyTool('MultiEdit')).toBe(true);
  expect(isClaudeOnlyTool('WebFetch')).toBe(true);
  expect(isClaudeOnlyTool('Skill')).toBe(false);
});
