/**
 * Claude Code's other memory files: `~/.claude/CLAUDE.md` (the user's), `.claude/CLAUDE.md` and
 * `CLAUDE.local.md` (the project's) are read as instructions, in Claude Code's order; their `@path`
 * imports are followed (imports.test.ts), and one that is not is said, naming file, line and path.
 */
import { mkdtemp, mkdir, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readInstructionFiles } from '../../../plugins/system-prompt/instructions.js';

async function dirs(): Promise<{ home: string; root: string }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'mc-home-'));
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-root-'));
  await mkdir(path.join(home, '.mewcode'));
  await mkdir(path.join(home, '.claude'));
  await mkdir(path.join(root, '.claude'));
  return { home, root };
}

test('~/.claude/CLAUDE.md after ~/.mewcode\'s files; the project\'s CLAUDE.md, .claude/CLAUDE.md, then CLAUDE.local.md', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(home, '.mewcode', 'AGENTS.md'), 'mewcode user');
  await writeFile(path.join(home, '.claude', 'CLAUDE.md'), 'claude user');
  await writeFile(path.join(root, 'CLAUDE.md'), 'project');
  await writeFile(path.join(root, '.claude', 'CLAUDE.md'), 'dot claude');
  await writeFile(path.join(root, 'CLAUDE.local.md'), 'local');
  expect(readInstructionFiles(home, root).map((f) => f.text)).toEqual(['mewcode user', 'claude user', 'project', 'dot claude', 'local']);
  // Without the user's sources, the user's files are not read.
  expect(readInstructionFiles(home, root, undefined, { user: false, project: true }).map((f) => f.text)).toEqual(['project', 'dot claude', 'local']);
});

test('a project\'s .claude/CLAUDE.md that links out of the project is not used, with a warning', async () => {
  const { home, root } = await dirs();
  const secret = path.join(home, 'secret.txt');
  await writeFile(secret, 'SECRET');
  await symlink(secret, path.join(root, '.claude', 'CLAUDE.md'));
  const warnings: string[] = [];
  expect(readInstructionFiles(home, root, (m) => warnings.push(m)).map((f) => f.text)).toEqual([]);
  expect(warnings.join('\n')).toContain(path.join(root, '.claude', 'CLAUDE.md'));
});

test('an @import that is not followed is said with its file and line; e-mail addresses and code are not imports', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'CLAUDE.md'), 'See @docs/style.md and @~/.claude/mine.md.\nMail me@example.com.\n```\n@not/this\n```\n`@nor/this`\n');
  const warnings: string[] = [];
  await writeFile(path.join(home, '.claude', 'mine.md'), 'MINE');
  readInstructionFiles(home, root, (m) => warnings.push(m));
  expect(warnings).toEqual([
    `${path.join(root, 'CLAUDE.md')}:1: @docs/style.md is not imported: it does not exist`,
    `${path.join(root, 'CLAUDE.md')}:1: @~/.claude/mine.md is not imported: it is outside the project; a project's file may import only files inside it`,
  ]);
});
