/** U3: project instructions in the stable prompt, capped at a character boundary. */
import { mkdtemp, mkdir, realpath, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { MAX_INSTRUCTION_BYTES, readInstructionFiles, renderInstructions } from '../../../plugins/system-prompt/instructions.js';

async function dirs(): Promise<{ home: string; root: string }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'mc-home-'));
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-root-'));
  await mkdir(path.join(home, '.mewcode'));
  return { home, root };
}

test('reads MEWCODE.md, AGENTS.md and CLAUDE.md from ~/.mewcode first, then the project root', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(home, '.mewcode', 'MEWCODE.md'), 'user rule');
  await writeFile(path.join(root, 'CLAUDE.md'), 'claude rule');
  await writeFile(path.join(root, 'AGENTS.md'), 'agents rule');
  await writeFile(path.join(root, 'MEWCODE.md'), '   \n'); // blank: ignored
  const files = readInstructionFiles(home, root);
  expect(files.map((f) => [f.file, f.text])).toEqual([
    [path.join(home, '.mewcode', 'MEWCODE.md'), 'user rule'],
    [path.join(root, 'AGENTS.md'), 'agents rule'],
    [path.join(root, 'CLAUDE.md'), 'claude rule'],
  ]);
  const rendered = renderInstructions(files);
  expect(rendered.indexOf('user rule')).toBeLessThan(rendered.indexOf('agents rule'));
  expect(renderInstructions([])).toBe('');
});

test(`a file of exactly ${MAX_INSTRUCTION_BYTES} bytes is whole; one byte more is truncated and says so`, async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'MEWCODE.md'), 'a'.repeat(MAX_INSTRUCTION_BYTES));
  expect(readInstructionFiles(home, root)[0]).toMatchObject({ truncated: false });
  expect(readInstructionFiles(home, root)[0]!.text).toHaveLength(MAX_INSTRUCTION_BYTES);
  await writeFile(path.join(root, 'MEWCODE.md'), 'a'.repeat(MAX_INSTRUCTION_BYTES + 1));
  const [file] = readInstructionFiles(home, root);
  expect(file).toMatchObject({ truncated: true });
  expect(file!.text).toHaveLength(MAX_INSTRUCTION_BYTES);
  expect(renderInstructions([file!])).toContain(`[truncated: only the first ${MAX_INSTRUCTION_BYTES} bytes`);
});

test('truncation never splits a UTF-8 character', async () => {
  const { home, root } = await dirs();
  // 'é' is 2 bytes: put one straddling the cap.
  await writeFile(path.join(root, 'MEWCODE.md'), `${'a'.repeat(MAX_INSTRUCTION_BYTES - 1)}é tail`);
  const [file] = readInstructionFiles(home, root);
  expect(file!.truncated).toBe(true);
  expect(file!.text).toBe('a'.repeat(MAX_INSTRUCTION_BYTES - 1));
  expect(file!.text).not.toContain('\uFFFD');
});

test("a project's file that leads out of the project is skipped with a warning naming it; the user's own link is followed", async () => {
  const { home, root } = await dirs();
  const { symlink } = await import('node:fs/promises');
  await writeFile(path.join(home, 'secret.md'), 'SECRET');
  await symlink(path.join(home, 'secret.md'), path.join(root, 'CLAUDE.md'));
  await symlink(path.join(home, 'secret.md'), path.join(home, '.mewcode', 'AGENTS.md'));
  const warnings: string[] = [];
  const files = readInstructionFiles(home, root, (message) => warnings.push(message));
  expect(files.map((f) => [f.file, f.text])).toEqual([[path.join(home, '.mewcode', 'AGENTS.md'), 'SECRET']]);
  expect(warnings).toEqual([`${path.join(root, 'CLAUDE.md')} is not used as instructions: it is a link to ${await realpath(path.join(home, 'secret.md'))}, outside the project; a project's file may not lead out of it`]);
});

test('in the home directory the root files are the user\'s own: their links are followed', async () => {
  const { home } = await dirs();
  const { symlink } = await import('node:fs/promises');
  const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'mc-dotfiles-'));
  await writeFile(path.join(elsewhere, 'CLAUDE.md'), 'dotfiles rule');
  await symlink(path.join(elsewhere, 'CLAUDE.md'), path.join(home, 'CLAUDE.md'));
  expect(readInstructionFiles(home, home).map((f) => f.text)).toEqual(['dotfiles rule']);
});
