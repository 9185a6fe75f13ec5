/**
 * Claude Code's `@path` imports in instruction files: followed (relative to the importing file,
 * `~/` in the home, recursively up to 5 hops, each file once), placed right after the file that
 * imports them; a project's file may import only files really inside the project, the user's
 * files only files in the home; read rules, size caps and binary files are respected.
 */
import { mkdtemp, mkdir, realpath, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  MAX_IMPORT_DEPTH,
  MAX_IMPORTED_BYTES,
  MAX_INSTRUCTION_BYTES,
  readInstructionFiles,
  renderInstructions,
  type InstructionFile,
} from '../../../plugins/system-prompt/instructions.js';

async function dirs(): Promise<{ home: string; root: string }> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'mc-home-'));
  const root = await mkdtemp(path.join(os.tmpdir(), 'mc-root-'));
  await mkdir(path.join(home, '.mewcode'));
  await mkdir(path.join(home, '.claude'));
  await mkdir(path.join(root, '.claude'));
  return { home, root };
}

function read(home: string, root: string, options: Parameters<typeof readInstructionFiles>[4] = {}): { files: InstructionFile[]; warnings: string[] } {
  const warnings: string[] = [];
  const files = readInstructionFiles(home, root, (m) => warnings.push(m), { user: true, project: true }, options);
  return { files, warnings };
}

const texts = (files: InstructionFile[]): string[] => files.map((f) => f.text.trim());

test('relative imports resolve against the importing file\'s folder; names without an extension (@README) are files too', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'CLAUDE.md'), 'See @README for project overview and @package.json for npm commands.\n');
  await writeFile(path.join(root, 'README'), 'readme text');
  await writeFile(path.join(root, 'package.json'), '{"scripts":{"test":"jest"}}');
  await writeFile(path.join(root, '.claude', 'CLAUDE.md'), 'Git: @git-instructions.md');
  await writeFile(path.join(root, '.claude', 'git-instructions.md'), 'dot-claude git rules');
  await writeFile(path.join(root, 'git-instructions.md'), 'root git rules'); // not the one meant
  const { files, warnings } = read(home, root);
  expect(texts(files)).toEqual([
    'See @README for project overview and @package.json for npm commands.',
    'readme text',
    '{"scripts":{"test":"jest"}}',
    'Git: @git-instructions.md',
    'dot-claude git rules',
  ]);
  expect(files[1]).toMatchObject({ file: path.join(root, 'README'), importedBy: path.join(root, 'CLAUDE.md') });
  expect(warnings).toEqual([]);
  // Each imported file is its own section, right after its importer, naming both.
  const rendered = renderInstructions(files);
  expect(rendered).toContain(`## ${path.join(root, 'README')} (imported by ${path.join(root, 'CLAUDE.md')})\nreadme text`);
  expect(rendered.indexOf('readme text')).toBeLessThan(rendered.indexOf('Git: @git'));
});

test('nested imports come depth first, each after the file that imports it; trailing punctuation is not part of the path', async () => {
  const { home, root } = await dirs();
  await mkdir(path.join(root, 'docs', 'deep'), { recursive: true });
  await writeFile(path.join(root, 'AGENTS.md'), 'top (see @docs/a.md), then @docs/b.md.');
  await writeFile(path.join(root, 'docs', 'a.md'), 'A imports @deep/c.md');
  await writeFile(path.join(root, 'docs', 'deep', 'c.md'), 'C text');
  await writeFile(path.join(root, 'docs', 'b.md'), 'B text');
  const { files, warnings } = read(home, root);
  expect(texts(files)).toEqual(['top (see @docs/a.md), then @docs/b.md.', 'A imports @deep/c.md', 'C text', 'B text']);
  expect(files[2]!.importedBy).toBe(path.join(root, 'docs', 'a.md'));
  expect(warnings).toEqual([]);
});

test('the user\'s files import from the home (@~/…, relative, absolute); not from outside it', async () => {
  const { home, root } = await dirs();
  const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'mc-elsewhere-'));
  await writeFile(path.join(elsewhere, 'outside.md'), 'OUTSIDE-HOME');
  await writeFile(path.join(home, '.claude', 'CLAUDE.md'), `Mine: @~/.claude/my-project-instructions.md\n@shared.md\n@${path.join(home, 'abs.md')}\n@${path.join(elsewhere, 'outside.md')}\n`);
  await writeFile(path.join(home, '.claude', 'my-project-instructions.md'), 'my instructions');
  await writeFile(path.join(home, '.claude', 'shared.md'), 'shared');
  await writeFile(path.join(home, 'abs.md'), 'absolute in home');
  const { files, warnings } = read(home, root);
  expect(texts(files).slice(1)).toEqual(['my instructions', 'shared', 'absolute in home']);
  expect(warnings).toEqual([expect.stringContaining(`${path.join(home, '.claude', 'CLAUDE.md')}:4: @${path.join(elsewhere, 'outside.md')} is not imported`)]);
  expect(warnings[0]).toContain('outside your home');
});

test(`imports are followed ${MAX_IMPORT_DEPTH} hops deep, not ${MAX_IMPORT_DEPTH + 1}`, async () => {
  expect(MAX_IMPORT_DEPTH).toBe(5);
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'CLAUDE.md'), 'start @h1.md');
  for (let hop = 1; hop <= 6; hop++) await writeFile(path.join(root, `h${hop}.md`), `hop ${hop}${hop < 6 ? ` @h${hop + 1}.md` : ''}`);
  const { files, warnings } = read(home, root);
  expect(texts(files)).toEqual(['start @h1.md', 'hop 1 @h2.md', 'hop 2 @h3.md', 'hop 3 @h4.md', 'hop 4 @h5.md', 'hop 5 @h6.md']);
  expect(warnings).toEqual([`${path.join(root, 'h5.md')}:1: @h6.md is not imported: imports are followed at most ${MAX_IMPORT_DEPTH} deep`]);
});

test('cycles are cut: each file is included once, a memory file imported again included once', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'AGENTS.md'), 'agents');
  await writeFile(path.join(root, 'CLAUDE.md'), '@AGENTS.md\n@a.md\n@CLAUDE.md');
  await writeFile(path.join(root, 'a.md'), 'a @b.md @a.md');
  await writeFile(path.join(root, 'b.md'), 'b @a.md @./CLAUDE.md');
  const { files, warnings } = read(home, root);
  expect(texts(files)).toEqual(['agents', '@AGENTS.md\n@a.md\n@CLAUDE.md', 'a @b.md @a.md', 'b @a.md @./CLAUDE.md']);
  expect(warnings).toEqual([]);
});

test('a file imported before it is read as a memory file is not read twice', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'AGENTS.md'), 'agents @CLAUDE.md');
  await writeFile(path.join(root, 'CLAUDE.md'), 'claude');
  expect(texts(read(home, root).files)).toEqual(['agents @CLAUDE.md', 'claude']);
});

test('code spans and fenced code blocks are not imports', async () => {
  const { home, root } = await dirs();
  for (const name of ['x.md', 'y.md', 'z.md', 'w.md', 'after.md']) await writeFile(path.join(root, name), `FILE ${name}`);
  await writeFile(path.join(root, 'CLAUDE.md'), [
    'Write `@x.md` or ``@y.md and ` more``.',
    '```sh',
    'cat @z.md',
    '```',
    '~~~',
    '@w.md',
    '```',
    '@w.md',
    '~~~',
    'Then @after.md',
  ].join('\n'));
  const { files, warnings } = read(home, root);
  expect(texts(files).slice(1)).toEqual(['FILE after.md']);
  expect(warnings).toEqual([]);
});

test('an indented code block is no import; an indented line continuing a paragraph or a list item is', async () => {
  const { home, root } = await dirs();
  for (const name of ['code.md', 'tab.md', 'para.md', 'item.md', 'after.md']) await writeFile(path.join(root, name), `FILE ${name}`);
  await writeFile(path.join(root, 'CLAUDE.md'), [
    'Example:',
    '',
    '    cat @code.md',
    '',
    '    still code',
    '\t@tab.md',
    '',
    'A paragraph',
    '    @para.md',
    '',
    '- an item',
    '',
    '    @item.md',
    '',
    'Then @after.md',
  ].join('\n'));
  const { files, warnings } = read(home, root);
  expect(texts(files).slice(1)).toEqual(['FILE para.md', 'FILE item.md', 'FILE after.md']);
  expect(warnings).toEqual([]);
});

test('e-mail addresses, npm scopes and @mentions are not imports, and are not warned about', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'example.com'), 'NOT AN IMPORT');
  await mkdir(path.join(root, 'types', 'node'), { recursive: true }); // a folder, not a file
  await writeFile(path.join(root, 'CLAUDE.md'), 'Mail user@example.com or ask @alice. Install @types/node and @babel/core, @scope/pkg@1.2.\n');
  const { files, warnings } = read(home, root);
  expect(texts(files)).toHaveLength(1);
  expect(warnings).toEqual([]);
});

test('a missing import is a warning naming the file, line and path; the rest loads', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'CLAUDE.md'), 'line one\nline two\nSee @docs/missing.md and @./gone.txt, then @here.md\n');
  await writeFile(path.join(root, 'here.md'), 'here');
  const { files, warnings } = read(home, root);
  expect(texts(files).slice(1)).toEqual(['here']);
  expect(warnings).toEqual([
    `${path.join(root, 'CLAUDE.md')}:3: @docs/missing.md is not imported: it does not exist`,
    `${path.join(root, 'CLAUDE.md')}:3: @./gone.txt is not imported: it does not exist`,
  ]);
});

test('a project\'s file imports only files really inside the project: not ~/, .., absolute paths or links out', async () => {
  const { home, root } = await dirs();
  await mkdir(path.join(home, '.ssh'));
  await writeFile(path.join(home, '.ssh', 'id_rsa'), 'SECRET-KEY');
  await writeFile(path.join(home, 'secret.md'), 'SECRET-MD');
  const sibling = await mkdtemp(path.join(os.tmpdir(), 'mc-sibling-'));
  await writeFile(path.join(sibling, 'x.md'), 'SECRET-SIBLING');
  await symlink(path.join(home, 'secret.md'), path.join(root, 'notes.md'));
  await mkdir(path.join(root, 'linked'));
  await symlink(home, path.join(root, 'linked', 'home'));
  await writeFile(path.join(root, 'inside.md'), 'inside');
  await writeFile(path.join(root, 'CLAUDE.local.md'), [
    '@~/.ssh/id_rsa',
    `@${path.relative(root, path.join(sibling, 'x.md'))}`,
    `@${path.join(home, 'secret.md')}`,
    '@notes.md',
    '@linked/home/secret.md',
    `@${path.join(root, 'inside.md')}`,
  ].join('\n'));
  const { files, warnings } = read(home, root);
  expect(texts(files)).toEqual([expect.stringContaining('@~/.ssh/id_rsa'), 'inside']);
  expect(files.map((f) => f.text).join('\n')).not.toMatch(/SECRET/);
  const local = path.join(root, 'CLAUDE.local.md');
  expect(warnings).toHaveLength(5);
  expect(warnings[0]).toBe(`${local}:1: @~/.ssh/id_rsa is not imported: it is outside the project; a project's file may import only files inside it`);
  expect(warnings[1]).toMatch(new RegExp(`^${local}:2: .* is not imported: it is outside the project`));
  expect(warnings[2]).toMatch(new RegExp(`^${local}:3: .* is not imported: it is outside the project`));
  expect(warnings[3]).toBe(`${local}:4: @notes.md is not imported: it is a link to ${await realpath(path.join(home, 'secret.md'))}, outside the project; a project's file may not lead out of it`);
  expect(warnings[4]).toMatch(new RegExp(`^${local}:5: @linked/home/secret.md is not imported: it is a link to .*outside the project`));
});

test('an untrusted project is treated as for its memory files: its imports inside it load, nothing outside', async () => {
  // Instruction files are read whatever the workspace trust (only hooks, MCP servers and the
  // like wait for it): their imports follow the same rule, held to the project.
  const { home, root } = await dirs();
  await writeFile(path.join(home, 'secret.md'), 'SECRET');
  await writeFile(path.join(root, 'CLAUDE.md'), '@rules.md @../' + path.basename(home) + '/secret.md');
  await writeFile(path.join(root, 'rules.md'), 'rules');
  const { files, warnings } = read(home, root);
  expect(texts(files)).toEqual([expect.any(String), 'rules']);
  expect(warnings).toHaveLength(1);
});

test('a user\'s import of a project file is held to the project too (a link in it may not lead out)', async () => {
  const home = await mkdtemp(path.join(os.tmpdir(), 'mc-home-'));
  await mkdir(path.join(home, '.claude'));
  const root = path.join(home, 'work', 'repo');
  await mkdir(root, { recursive: true });
  await mkdir(path.join(home, '.ssh'));
  await writeFile(path.join(home, '.ssh', 'id_rsa'), 'SECRET-KEY');
  await symlink(path.join(home, '.ssh', 'id_rsa'), path.join(root, 'notes.md'));
  await writeFile(path.join(home, '.claude', 'CLAUDE.md'), '@~/work/repo/notes.md');
  const { files, warnings } = read(home, root);
  expect(files.map((f) => f.text).join('\n')).not.toContain('SECRET');
  expect(warnings).toEqual([expect.stringContaining(`${path.join(home, '.claude', 'CLAUDE.md')}:1: @~/work/repo/notes.md is not imported: it is a link to`)]);
});

test('a file the read rules deny (or ask about) is not imported', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, '.env'), 'API_KEY=SECRET');
  await writeFile(path.join(root, 'ok.md'), 'ok');
  await writeFile(path.join(root, 'CLAUDE.md'), '@.env @ok.md');
  const hidden = (file: string): boolean => path.basename(file) === '.env';
  const { files, warnings } = read(home, root, { hidden });
  expect(texts(files).slice(1)).toEqual(['ok']);
  expect(warnings).toEqual([`${path.join(root, 'CLAUDE.md')}:1: @.env is not imported: the read rules (Read(…) deny or ask) cover it`]);
});

test('binary and non-UTF-8 files are refused with a warning', async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'bin.md'), Buffer.from([0x61, 0x00, 0x62]));
  await writeFile(path.join(root, 'latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  await writeFile(path.join(root, 'CLAUDE.md'), '@bin.md\n@latin1.md');
  const { files, warnings } = read(home, root);
  expect(texts(files)).toHaveLength(1);
  expect(warnings).toEqual([
    `${path.join(root, 'CLAUDE.md')}:1: @bin.md is not imported: it is a binary file`,
    `${path.join(root, 'CLAUDE.md')}:2: @latin1.md is not imported: it is not UTF-8 text`,
  ]);
});

test(`an imported file of exactly ${MAX_INSTRUCTION_BYTES} bytes is whole; one byte more is cut and says so`, async () => {
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'CLAUDE.md'), '@big.md');
  await writeFile(path.join(root, 'big.md'), 'a'.repeat(MAX_INSTRUCTION_BYTES));
  expect(read(home, root).files[1]).toMatchObject({ truncated: false, text: 'a'.repeat(MAX_INSTRUCTION_BYTES) });
  await writeFile(path.join(root, 'big.md'), 'a'.repeat(MAX_INSTRUCTION_BYTES + 1));
  const [, big] = read(home, root).files;
  expect(big).toMatchObject({ truncated: true, text: 'a'.repeat(MAX_INSTRUCTION_BYTES) });
});

test(`imported text totals at most ${MAX_IMPORTED_BYTES} bytes: exactly that loads, one byte more leaves the last file out`, async () => {
  expect(MAX_IMPORTED_BYTES).toBe(128 * 1024);
  const { home, root } = await dirs();
  await writeFile(path.join(root, 'CLAUDE.md'), '@a.md\n@b.md\n@c.md\n@d.md');
  await writeFile(path.join(root, 'a.md'), 'a'.repeat(MAX_INSTRUCTION_BYTES));
  await writeFile(path.join(root, 'b.md'), 'b'.repeat(MAX_IMPORTED_BYTES - MAX_INSTRUCTION_BYTES - 2));
  await writeFile(path.join(root, 'c.md'), 'cc'); // 2-byte text: exactly at the total
  await writeFile(path.join(root, 'd.md'), '');
  let result = read(home, root);
  expect(result.files.map((f) => f.text.length)).toEqual([23, MAX_INSTRUCTION_BYTES, MAX_IMPORTED_BYTES - MAX_INSTRUCTION_BYTES - 2, 2]);
  expect(result.warnings).toEqual([]);
  await writeFile(path.join(root, 'c.md'), 'é'); // 2 bytes in UTF-8, still fits
  expect(read(home, root).files).toHaveLength(4);
  await writeFile(path.join(root, 'c.md'), 'ccc');
  await writeFile(path.join(root, 'd.md'), 'dd'); // a later file that fits still loads
  result = read(home, root);
  expect(texts(result.files).slice(1).map((t) => t[0])).toEqual(['a', 'b', 'd']);
  expect(result.warnings).toEqual([`${path.join(root, 'CLAUDE.md')}:3: @c.md is not imported: imported files may total at most ${MAX_IMPORTED_BYTES} bytes, and this one (3 bytes) would make ${MAX_IMPORTED_BYTES + 1}`]);
});

test('a project that holds the home (opened at its parent) may not import the user\'s files, as written or through a link', async () => {
  const parent = await mkdtemp(path.join(os.tmpdir(), 'mc-parent-'));
  const home = path.join(parent, 'user');
  await mkdir(path.join(home, '.ssh'), { recursive: true });
  await writeFile(path.join(home, '.ssh', 'id_rsa'), 'SECRET-KEY');
  await symlink(path.join(home, '.ssh'), path.join(parent, 'keys'));
  await writeFile(path.join(parent, 'ok.md'), 'ok');
  await writeFile(path.join(parent, 'CLAUDE.md'), '@user/.ssh/id_rsa\n@keys/id_rsa\n@ok.md');
  const { files, warnings } = read(home, parent);
  expect(texts(files)).toEqual([expect.any(String), 'ok']);
  expect(warnings).toEqual([
    `${path.join(parent, 'CLAUDE.md')}:1: @user/.ssh/id_rsa is not imported: it is in your home, which the project holds but does not own; a project's file may not import from it`,
    `${path.join(parent, 'CLAUDE.md')}:2: @keys/id_rsa is not imported: it is in your home, which the project holds but does not own; a project's file may not import from it`,
  ]);
});

test('a FIFO, git\'s own files and folders are not imported; an escaped space is part of the path', async () => {
  const { home, root } = await dirs();
  const { execFileSync } = await import('node:child_process');
  execFileSync('mkfifo', [path.join(root, 'pipe.md')]);
  await mkdir(path.join(root, '.git'));
  await writeFile(path.join(root, '.git', 'config'), '[remote "origin"]\n\turl = https://user:TOKEN-SECRET@example.com/r.git\n');
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'my notes.md'), 'spaced');
  await writeFile(path.join(root, '.claude', 'CLAUDE.md'), 'Code in @src/ and @../src\n@../pipe.md\n@../.git/config\nSee @../my\\ notes.md');
  const { files, warnings } = read(home, root);
  expect(texts(files).slice(1)).toEqual(['spaced']);
  const file = path.join(root, '.claude', 'CLAUDE.md');
  expect(warnings).toEqual([
    `${file}:2: @../pipe.md is not imported: it is a FIFO, not a regular file`,
    `${file}:3: @../.git/config is not imported: it is one of git's own files, which are not instructions`,
  ]);
});
