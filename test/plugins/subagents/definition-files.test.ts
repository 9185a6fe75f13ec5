/** Definition files are read through the shared project-file reader: the size limit at its boundary, links by scope. */
import { linkSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { loadDefinitions, MAX_DEFINITION_BYTES } from '../../../plugins/subagents/definitions.js';
import type { WorkspaceTrust } from '../../../types/trust.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-agent-files-')));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const definition = (name: string, size: number): string => {
  const head = `---\nname: ${name}\ndescription: d\n---\n`;
  return head + 'x'.repeat(size - Buffer.byteLength(head));
};
const trustAll = { approves: () => true } as unknown as WorkspaceTrust;

test(`a definition of exactly ${MAX_DEFINITION_BYTES} bytes is used; one byte more is skipped, naming the file`, async () => {
  const dir = path.join(base, 'agents');
  mkdirSync(dir);
  writeFileSync(path.join(dir, 'full.md'), definition('full', MAX_DEFINITION_BYTES));
  writeFileSync(path.join(dir, 'over.md'), definition('over', MAX_DEFINITION_BYTES + 1));
  const loaded = await loadDefinitions([{ dir, project: false }], undefined);
  expect(loaded.roles.map((role) => role.name)).toEqual(['full']);
  expect(loaded.warnings).toEqual([`subagents: ${path.join(dir, 'over.md')}: it is ${MAX_DEFINITION_BYTES + 1} bytes, over the ${MAX_DEFINITION_BYTES}-byte limit; skipped`]);
});

test("a project's definition linked out of the project, or hard-linked, is skipped even when trusted; the user's own link is used", async () => {
  const root = path.join(base, 'project');
  const projectDir = path.join(root, '.claude', 'agents');
  const userDir = path.join(base, 'home', '.mewcode', 'agents');
  mkdirSync(projectDir, { recursive: true });
  mkdirSync(userDir, { recursive: true });
  writeFileSync(path.join(base, 'shared.md'), definition('shared', 200));
  symlinkSync(path.join(base, 'shared.md'), path.join(projectDir, 'out.md'));
  linkSync(path.join(base, 'shared.md'), path.join(projectDir, 'hard.md'));
  symlinkSync(path.join(base, 'shared.md'), path.join(userDir, 'mine.md'));
  const loaded = await loadDefinitions([{ dir: userDir, project: false }, { dir: projectDir, project: true, root }], trustAll);
  expect(loaded.roles.map((role) => role.source)).toEqual([path.join(userDir, 'mine.md')]);
  expect(loaded.warnings).toEqual([
    expect.stringMatching(/hard\.md: it has 2 hard links/),
    expect.stringMatching(/out\.md: it is a link to .*shared\.md, outside the project/),
  ]);
});
