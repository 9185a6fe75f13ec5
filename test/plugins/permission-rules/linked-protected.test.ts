/**
 * A file-tool write that reaches a protected folder through a link the repository commits
 * (`packages/web/.opencode -> ../../shared/opencode`) is judged as a write to that folder: it asks
 * in every mode, whatever the broad allow rules, though neither the written path nor its real path
 * names the folder. The project is walked for such links within a bound; past the bound the write
 * asks (the check cannot say no link leads there).
 */
import { accessSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, realpathSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PermissionMode } from '../../../types/permissions.js';
import { linkedReaches, MAX_LINK_WALK_DIRS, RACY_NS } from '../../../plugins/permission-rules/linked-protected.js';
import { bootRules, decide, edit, tempDirs, write, type Dirs } from './helpers.js';

let dirs: Dirs;
let outside: string;
const link = (target: string, at: string): void => {
  mkdirSync(path.dirname(path.join(dirs.root, at)), { recursive: true });
  symlinkSync(target, path.join(dirs.root, at));
};
const folder = (at: string): void => void mkdirSync(path.join(dirs.root, at), { recursive: true });

beforeEach(() => {
  dirs = tempDirs();
  outside = path.join(path.dirname(dirs.root), 'elsewhere');
  mkdirSync(path.join(outside, 'agent'), { recursive: true });
  folder('.git/hooks');
  writeFileSync(path.join(dirs.root, '.git/config'), '[core]\n\thooksPath = .husky\n');
  folder('shared/opencode');
  link('../../shared/opencode', 'packages/web/.opencode'); // the audit's repository
  link('../../shared/claude', 'packages/api/.claude'); // dangling: shared/claude does not exist yet
  folder('shared/cursor');
  link('../../../shared/cursor', 'apps/x/y/.cursor'); // deeper
  writeFileSync(path.join(dirs.root, 'shared/mcp.json'), '{}');
  link('../../shared/mcp.json', 'packages/web/.mcp.json'); // a protected file, not a folder
  folder('shared/mewcode');
  link('../shared/mewcode', 'tools/.mewcode');
  folder('gitstore');
  link('../gitstore', 'sub/.git'); // a nested repository's git directory, kept elsewhere
  folder('tools/hooks');
  link('tools/hooks', '.husky'); // core.hooksPath names .husky
  folder('.claude');
  folder('cmds');
  link('../cmds', '.claude/commands'); // a link inside a protected folder
  folder('src/plugins');
  link('../../src/plugins', 'shared/opencode/plugin'); // a link inside a linked target
  link(path.join(outside, 'agent'), 'packages/web/.gemini'); // a target outside the project…
  mkdirSync(path.join(outside, 'store'));
  symlinkSync(path.join(outside, 'store'), path.join(outside, 'agent', 'extensions')); // …holding a link
  folder('nested/.git');
  folder('common');
  writeFileSync(path.join(dirs.root, 'nested/.git/commondir'), '../../common\n'); // a nested repository reading its config from a common dir (a red team's find)
  folder('wt');
  writeFileSync(path.join(dirs.root, 'wt/.git'), `gitdir: ${path.join(outside, 'gitdir')}\n`); // a .git file's target, not yet a git directory
});
afterEach(() => dirs.cleanup());

function memoryTmp(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'bypassPermissions'];
const REACHED = [
  'shared/opencode/plugin.js',
  'shared/opencode/opencode.json',
  'shared/claude/settings.json',
  'shared/cursor/mcp.json',
  'shared/mcp.json',
  'shared/mewcode/commands/x.md',
  'gitstore/config',
  'tools/hooks/pre-commit',
  'cmds/review.md',
  'src/plugins/fmt.js',
  'common/config',
  'common/hooks/pre-commit',
];

describe.each(MODES)('in %s mode, with Edit(**) and Write(./**) allowed', (mode) => {
  test.each(REACHED)('a write to %s, reached from a protected name through a link, asks', async (file) => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
    for (const verdict of [await write(kernel, file, mode), await edit(kernel, path.join(dirs.root, file), mode)]) {
      expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    }
  });
});

test('targets outside the project, links there and a .git file\'s target ask too', async () => {
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(//**)'] } });
  for (const file of [path.join(outside, 'agent', 'settings.json'), path.join(outside, 'store', 'ext.js'), path.join(outside, 'gitdir', 'HEAD')]) {
    expect(await write(kernel, file, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  }
});

test('the reason names the link that leads there and the exact rule; that rule of the user passes it', async () => {
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)'] } });
  const verdict = await write(kernel, 'shared/opencode/plugin.js', 'acceptEdits');
  expect(verdict!.reason).toContain('packages/web/.opencode');
  expect(verdict!.reason).toContain('Edit(shared/opencode/plugin.js)');
  const exact = await bootRules(dirs, { cli: { allowedTools: ['Edit(shared/opencode/plugin.js)'] } });
  expect(await write(exact.kernel, 'shared/opencode/plugin.js', 'acceptEdits')).toMatchObject({ decision: 'allow' });
});

test("a toolchain file's link: its target is judged by what the write would leave, as the file itself", async () => {
  writeFileSync(path.join(dirs.root, 'shared/versions'), 'nodejs 20.1.0\n');
  link('../../shared/versions', 'packages/web/.tool-versions');
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
  expect(await decide(kernel, 'write_file', { file_path: 'shared/versions', content: 'nodejs path:/tmp/evil\n' }, 'acceptEdits')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  expect(await decide(kernel, 'write_file', { file_path: 'shared/versions', content: 'nodejs 22.2.0\n' }, 'acceptEdits')).toMatchObject({ decision: 'allow' });
});

test('files no protected name leads to are not protected', async () => {
  link('../src', 'docs/source'); // a link of an ordinary name
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)'] } });
  for (const file of ['src/a.ts', 'shared/other.js', 'shared/opencode-notes.md', 'tools/build.sh', 'docs/source/a.ts', 'packages/web/index.ts']) {
    expect(await write(kernel, file, 'acceptEdits')).toMatchObject({ decision: 'allow' });
  }
});

describe('the walk is bounded, and fails closed past the bound', () => {
  let bounded: Dirs;
  beforeEach(() => {
    // In memory where there is some: making and removing 20 000 folders on a busy disk takes a minute.
    const base = realpathSync(mkdtempSync(path.join(memoryTmp(), 'mewcode-walk-')));
    bounded = { root: path.join(base, 'project'), home: path.join(base, 'home'), cleanup: () => rmSync(base, { recursive: true, force: true }) };
    mkdirSync(bounded.home, { recursive: true });
    // The root and MAX - 1 folders: the walk lists exactly MAX directories. node_modules is not walked.
    for (let i = 0; i < MAX_LINK_WALK_DIRS - 1; i++) mkdirSync(path.join(bounded.root, `d${i}`), { recursive: true });
    mkdirSync(path.join(bounded.root, 'node_modules', 'a', 'b'), { recursive: true });
  });
  afterEach(() => bounded.cleanup());

  test('at the bound an ordinary write passes; one directory more and it asks', async () => {
    const { kernel } = await bootRules(bounded, { cli: { allowedTools: ['Edit(**)'] } });
    expect(await write(kernel, 'd0/a.ts', 'acceptEdits')).toMatchObject({ decision: 'allow' });
    mkdirSync(path.join(bounded.root, 'one-more'));
    const verdict = await write(kernel, 'd0/a.ts', 'acceptEdits');
    expect(verdict).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
    expect(verdict!.reason).toContain(`more than ${MAX_LINK_WALK_DIRS} folders`);
  }, 60_000);
});

describe('a later write reuses the walk only while nothing it looked at changed', () => {
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, Number(RACY_NS / 1_000_000n) + 50));

  test('an unchanged project is not walked again; a link made deep down, a .git file rewritten in place or a link retargeted is seen', async () => {
    const root = realpathSync(dirs.root);
    await settle(); // the tree was just made: a walk that saw such recent change times is not kept
    const first = linkedReaches(root);
    expect(linkedReaches(root)).toBe(first);

    folder('deep/er/still');
    folder('shared/fresh');
    await settle();
    const second = linkedReaches(root);
    expect(second).not.toBe(first);
    link('../../../shared/fresh', 'deep/er/still/.claude');
    const third = linkedReaches(root);
    expect(third.reaches.map((reach) => reach.real)).toContain(path.join(root, 'shared/fresh'));

    await settle();
    expect(linkedReaches(root)).toBe(linkedReaches(root));
    const gitfile = path.join(dirs.root, 'wt/.git');
    const fd = openSync(gitfile, 'r+'); // in place: the directory's times do not change, the file's do
    writeSync(fd, `gitdir: ${path.join(outside, 'other')}\n`, 0);
    closeSync(fd);
    expect(linkedReaches(root).reaches.map((reach) => reach.real)).toContain(path.join(outside, 'other'));

    // A link resolved through a folder the walk does not list (outside the project): resolved again.
    mkdirSync(path.join(outside, 'one', 'agent'), { recursive: true });
    mkdirSync(path.join(outside, 'two', 'agent'), { recursive: true });
    symlinkSync(path.join(outside, 'one'), path.join(outside, 'alias'));
    link(path.join(outside, 'alias', 'agent'), 'packages/cli/.gemini');
    await settle();
    const before = linkedReaches(root);
    expect(linkedReaches(root)).toBe(before);
    rmSync(path.join(outside, 'alias'));
    symlinkSync(path.join(outside, 'two'), path.join(outside, 'alias'));
    const after = linkedReaches(root);
    expect(after).not.toBe(before);
    expect(after.reaches.map((reach) => reach.real)).toContain(path.join(realpathSync(outside), 'two', 'agent'));
  });

  test('through the permission layer: a link made after an allowed write is judged at the next write', async () => {
    const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
    folder('late/target');
    await settle();
    expect(await write(kernel, 'late/target/plugin.js', 'acceptEdits')).toMatchObject({ decision: 'allow' });
    expect(await write(kernel, 'late/target/plugin.js', 'acceptEdits')).toMatchObject({ decision: 'allow' }); // the walk reused
    link('../../../late/target', 'apps/z/q/.opencode');
    expect(await write(kernel, 'late/target/plugin.js', 'acceptEdits')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  });
});

test("a toolchain folder's link (.cargo -> shared/cargo): a file written below its target is judged as the same file below the link", async () => {
  folder('shared/cargo');
  link('../../shared/cargo', 'crates/y/.cargo');
  const { kernel } = await bootRules(dirs, { cli: { allowedTools: ['Edit(**)', 'Write(./**)'] } });
  expect(await decide(kernel, 'write_file', { file_path: 'shared/cargo/config.toml', content: '[build]\nrustc-wrapper = "./w.sh"\n' }, 'bypassPermissions')).toMatchObject({ decision: 'ask', layer: 'permission-rules:protected' });
  expect(await decide(kernel, 'write_file', { file_path: 'shared/cargo/config.toml', content: '[net]\ngit-fetch-with-cli = true\n' }, 'acceptEdits')).toMatchObject({ decision: 'allow' });
  expect(await decide(kernel, 'write_file', { file_path: 'shared/cargo/notes.md', content: 'rustc-wrapper\n' }, 'acceptEdits')).toMatchObject({ decision: 'allow' });
});
