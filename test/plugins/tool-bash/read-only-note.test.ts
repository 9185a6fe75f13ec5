/**
 * "Read-only file system" from a sandboxed command is explained: the protected path the failing
 * line names, and how to go on (read-only-note.ts).
 */
import { readOnlyNote } from '../../../plugins/tool-bash/read-only-note.js';

const root = '/work/p';
const protectedPaths = [`${root}/.claude`, `${root}/.mewcode`, `${root}/.git/config`, `${root}/.mcp.json`, `${root}/pkg/.claude`];

test.each([
  ['bash redirection', 'setup.sh: line 140: .claude/ralph-loop.local.md: Read-only file system', '`.claude/ralph-loop.local.md` (in the protected `.claude`)'],
  ['touch', "touch: cannot touch '.claude/x.local.md': Read-only file system", '`.claude/x.local.md`'],
  ['mkdir with curly quotes', 'mkdir: cannot create directory ‘.mewcode/state’: Read-only file system', '`.mewcode/state` (in the protected `.mewcode`)'],
  ['python', "OSError: [Errno 30] Read-only file system: '/work/p/.mcp.json'", '`/work/p/.mcp.json`'],
  ['./ spelling', 'sh: 1: cannot create ./.claude/a.md: Read-only file system', '`.claude/a.md`'],
  ['git config', 'error: could not lock config file .git/config: Read-only file system', '`.git/config`'],
])('%s names the protected path', (_name, line, named) => {
  const note = readOnlyNote(`some output\n${line}\n`, protectedPaths, root, root);
  expect(note).toContain(`Note: the write to ${named}`);
  expect(note).toContain('write_file or edit_file');
});

test('a path relative to the workdir is found too', () => {
  expect(readOnlyNote("touch: cannot touch '.claude/s.md': Read-only file system", protectedPaths, `${root}/pkg`, root)).toContain('`.claude/s.md` (in the protected `pkg/.claude`)');
});

test('a longer name or another folder\'s .claude is not taken for the protected one: the general note', () => {
  for (const line of ["touch: cannot touch '.claude-x/a': Read-only file system", "touch: cannot touch '/usr/lib/x': Read-only file system", "touch: cannot touch 'other/.claude/a': Read-only file system"]) {
    const note = readOnlyNote(line, protectedPaths, root, root);
    expect(note).toMatch(/^Note: "Read-only file system" here is the OS sandbox/);
  }
});

test('no note without the sandbox, or without the error', () => {
  expect(readOnlyNote('.claude/x: Read-only file system', undefined, root, root)).toBeUndefined();
  expect(readOnlyNote('all good', protectedPaths, root, root)).toBeUndefined();
});
