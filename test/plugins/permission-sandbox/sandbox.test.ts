/**
 * A3: the sandbox layer. Every attempt goes through the real `checkPermission` tap of a
 * booted kernel (sandbox + mode layer, bypassPermissions mode, so anything the sandbox lets
 * through is allowed by the mode layer). The escape suite must end with zero escapes.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import sandbox from '../../../plugins/permission-sandbox/index.js';
import type { PermissionSettings } from '../../../types/services.js';
import { TOKENS } from '../../../types/tokens.js';
import { definePlugin } from '../../../types/plugin.js';
import type { PermissionRequest, PermissionVerdict } from '../../../types/permissions.js';
import type { Tool } from '../../../types/tools.js';
import { bootKernel, type Booted } from '../../support/boot.js';
import { rawHooks } from '../permission-rules/raw-hooks.js';

let base: string;
let root: string;
let home: string;
let booted: Booted;
let additional: string[] = [];

const fileTool: Tool = {
  name: 'read_file',
  description: 'test',
  inputSchema: { type: 'object' },
  readOnly: true,
  permissionTarget: (input) => ({ kind: 'path', path: input.path as string }),
  execute: async () => ({ content: '' }),
};

function settingsPlugin() {
  const service: PermissionSettings = { additionalDirectories: () => additional, defaultMode: () => undefined };
  return definePlugin({ name: 'settings-stand-in', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.PermissionSettings).toConstantValue(service)) });
}

async function check(pathInput: unknown): Promise<PermissionVerdict | undefined> {
  const request: PermissionRequest = {
    toolName: 'read_file',
    tool: fileTool,
    input: { path: pathInput },
    category: 'read',
    target: { kind: 'path', path: pathInput as string },
    mode: 'bypassPermissions',
    sessionId: 's',
    projectRoot: root,
  };
  return rawHooks(booted.kernel).checkPermission.promise(request);
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mewcode-sandbox-')));
  root = path.join(base, 'repo');
  home = path.join(base, 'home');
  for (const dir of ['repo/src', 'repo2', 'outside', 'home/.ssh', 'extra', 'repo-evil']) await mkdir(path.join(base, dir), { recursive: true });
  await writeFile(path.join(root, 'src/a.ts'), 'a');
  await writeFile(path.join(base, 'repo2/file'), 'x');
  await writeFile(path.join(base, 'outside/secret.txt'), 'secret');
  const link = (target: string, name: string) => symlink(target, path.join(root, name));
  await link('src', 'inner-link'); // directory link inside → inside
  await link('src/a.ts', 'file-link'); // file link inside → inside
  await link('src/not-yet.ts', 'dangling-in'); // dangling, target inside
  await link('../outside/secret.txt', 'out-file-link');
  await link('../outside', 'out-dir-link');
  await link('/etc', 'abs-out-link');
  await link('/etc/passwd', 'passwd-link');
  await link('../outside/new-file.txt', 'dangling-out'); // dangling, target outside
  await link('dangling-out', 'dangling-chain');
  await link('../newdir', 'dangling-dir'); // dangling directory outside
  await link('loop-b', 'loop-a');
  await link('loop-a', 'loop-b');
  await link('self-loop', 'self-loop');
  await link('../..', 'rel-escape-link');
  await link('..', 'parent-link');
  await link('out-dir-link', 'chain-link');
  booted = await bootKernel([], [sandbox, settingsPlugin()], { projectRoot: root, homeDir: home });
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

beforeEach(() => {
  additional = [];
});

/** Each entry: a description and the path the model sends (functions see the temp layout). */
const ESCAPES: [string, () => unknown][] = [
  ['.. to a sibling file', () => '../outside/secret.txt'],
  ['.. chain to /etc', () => '../../../../../../../../etc/passwd'],
  ['a/../../x', () => 'a/../../x'],
  ['./../..', () => './../..'],
  ['..', () => '..'],
  ['../', () => '../'],
  ['src/../../outside', () => 'src/../../outside/secret.txt'],
  ['deep chain a/b/c/../../../../x', () => 'a/b/c/../../../../x'],
  ['very deep chain', () => `${'d/'.repeat(200)}${'../'.repeat(201)}outside/secret.txt`],
  ['absolute /etc/passwd', () => '/etc/passwd'],
  ['absolute /', () => '/'],
  ['absolute /etc', () => '/etc'],
  ['//etc/passwd', () => '//etc/passwd'],
  ['/tmp/../etc/passwd', () => '/tmp/../etc/passwd'],
  ['absolute outside file', () => path.join(base, 'outside/secret.txt')],
  ['absolute root/.. chain', () => `${root}/../outside/secret.txt`],
  ['~', () => '~'],
  ['~/x', () => '~/x'],
  ['~/.ssh/id_rsa', () => '~/.ssh/id_rsa'],
  ['absolute home', () => path.join(home, '.ssh')],
  ['sibling prefix repo2 (relative)', () => '../repo2/file'],
  ['sibling prefix repo2 (absolute file)', () => `${root}2/file`],
  ['sibling prefix repo2 (absolute dir)', () => `${root}2`],
  ['sibling prefix repo2/ (trailing slash)', () => `${root}2/`],
  ['sibling prefix repo-evil', () => `${root}-evil/x`],
  ['sibling via src/..', () => 'src/../../repo2/file'],
  ['sibling via ./ and /./', () => `${root}/./../repo2/file`],
  ['symlinked file pointing outside', () => 'out-file-link'],
  ['symlinked directory pointing outside', () => 'out-dir-link'],
  ['file under a symlinked directory', () => 'out-dir-link/secret.txt'],
  ['non-existent file under a symlinked directory', () => 'out-dir-link/new-file.txt'],
  ['non-existent deep path under a symlinked directory', () => 'out-dir-link/newdir/deeper/file.ts'],
  ['absolute symlink to /etc', () => 'abs-out-link'],
  ['file under an absolute symlink to /etc', () => 'abs-out-link/passwd'],
  ['file symlink to /etc/passwd', () => 'passwd-link'],
  ['dangling symlink to a new file outside', () => 'dangling-out'],
  ['chain ending in a dangling symlink outside', () => 'dangling-chain'],
  ['new file under a dangling directory symlink', () => 'dangling-dir/file.ts'],
  ['symlink loop', () => 'loop-a'],
  ['path through a symlink loop', () => 'loop-a/x'],
  ['self-referencing symlink', () => 'self-loop'],
  ['relative symlink two levels up', () => 'rel-escape-link/x'],
  ['symlink to the parent', () => 'parent-link'],
  ['file through a symlink to the parent', () => 'parent-link/outside/secret.txt'],
  ['chain of directory symlinks', () => 'chain-link/secret.txt'],
  ['inside link then .. twice', () => 'inner-link/../../outside/secret.txt'],
  ['trailing slash', () => '../outside/'],
  ['double slashes', () => '..//outside//secret.txt'],
  ['. segments', () => './../outside/./secret.txt'],
  ['NUL byte after an inside path', () => 'src/a.ts\u0000../../etc/passwd'],
  ['NUL byte alone', () => '\u0000'],
  ['NUL byte in the middle of ..', () => '.\u0000./etc/passwd'],
  ['component too long', () => 'x'.repeat(5000)],
  ['path longer than PATH_MAX', () => `${'abcdefgh/'.repeat(600)}file`],
  ['empty path', () => ''],
  ['missing path', () => undefined],
  ['non-string path', () => 42],
  ['object path', () => ({ toString: () => '/etc/passwd' })],
];

const tally = { attempts: 0, escapes: [] as string[] };

describe('sandbox escape suite', () => {
  test.each(ESCAPES)('%s is denied', async (name, input) => {
    tally.attempts++;
    const verdict = await check(input());
    if (verdict?.decision !== 'deny') tally.escapes.push(name);
    expect(verdict).toMatchObject({ decision: 'deny', layer: 'permission-sandbox', reason: expect.any(String) });
  });

  afterAll(() => {
    console.log(`sandbox escape suite: ${tally.attempts} attempts, ${tally.escapes.length} escapes${tally.escapes.length ? `: ${tally.escapes.join(', ')}` : ''}`);
  });
});

test('at least 50 escape attempts', () => {
  expect(ESCAPES.length).toBeGreaterThanOrEqual(50);
});

describe('look-alikes are literal names inside the project (allowed, never mistaken)', () => {
  test.each([
    ['U+2024 ONE DOT LEADER', '\u2024\u2024/etc/passwd'],
    ['U+FF0E FULLWIDTH FULL STOP', '\uff0e\uff0e/etc/passwd'],
    ['U+2215 DIVISION SLASH', '..\u2215..\u2215etc\u2215passwd'],
    ['U+29F8 BIG SOLIDUS', '..\u29f8..\u29f8etc'],
    ['mixed leader and dot', '\u2024./x'],
    ['backslashes', '..\\..\\etc\\passwd'],
    ['~root (not expanded: a file named ~root)', '~root'],
    ['a..b.ts', 'a..b.ts'],
    ['...', '...'],
    ['URL-encoded dots', '%2e%2e/etc/passwd'],
  ])('%s', async (_name, input) => {
    expect(await check(input)).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
    // and the sandbox resolves it to a path under the project root
    const { checkSandboxPath } = await import('../../../plugins/permission-sandbox/sandbox.js');
    const result = await checkSandboxPath(input, { projectRoot: root, homeDir: home, additionalDirectories: [] });
    expect(result).toEqual({ ok: true, resolved: expect.stringMatching(new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`)) });
  });
});

describe('normal paths inside the project are not the sandbox\'s business (no deny)', () => {
  test.each([
    ['relative file', 'src/a.ts'],
    ['./ relative', './src/a.ts'],
    ['absolute inside', () => `${root}/src/a.ts`],
    ['the root itself (.)', '.'],
    ['the root itself (absolute)', () => root],
    ['the root with a trailing slash', () => `${root}/`],
    ['new file in new directories', 'new/dir/file.ts'],
    ['symlinked directory inside pointing inside', 'inner-link/a.ts'],
    ['symlinked file inside pointing inside', 'file-link'],
    ['dangling symlink whose target is inside', 'dangling-in'],
    ['.. that stays inside', 'src/../src/a.ts'],
    ['double slash inside', 'src//a.ts'],
    ['. segment inside', 'src/./a.ts'],
    ['trailing slash inside', 'src/'],
  ])('%s', async (_name, input) => {
    const value = typeof input === 'function' ? input() : input;
    expect(await check(value)).toMatchObject({ decision: 'allow', layer: 'permission-mode' });
  });
});

describe('additional directories (from the PermissionSettings service, TOKENS.PermissionSettings)', () => {
  test('a directory listed absolutely, relatively or with ~ allows paths inside it', async () => {
    expect(await check(path.join(base, 'extra/file'))).toMatchObject({ decision: 'deny' });
    additional = [path.join(base, 'extra')];
    expect(await check(path.join(base, 'extra/file'))).toMatchObject({ decision: 'allow' });
    additional = ['../extra'];
    expect(await check('../extra/new/file')).toMatchObject({ decision: 'allow' });
    expect(await check('../extra2/file')).toMatchObject({ decision: 'deny' }); // still no bare prefix match
    additional = ['~/.ssh'];
    expect(await check('~/.ssh/config')).toMatchObject({ decision: 'allow' });
    expect(await check('~/other')).toMatchObject({ decision: 'deny' });
  });

  test('a symlink inside an additional directory that points elsewhere is still judged by its target', async () => {
    additional = [path.join(base, 'extra')];
    await symlink('/etc', path.join(base, 'extra/etc-link')).catch(() => undefined);
    expect(await check(path.join(base, 'extra/etc-link/passwd'))).toMatchObject({ decision: 'deny' });
  });
});

test('the reason names the resolved path, the root, and how to proceed', async () => {
  const verdict = await check('out-dir-link/secret.txt');
  expect(verdict).toEqual({
    decision: 'deny',
    layer: 'permission-sandbox',
    reason: `out-dir-link/secret.txt resolves to ${base}/outside/secret.txt, outside the project: paths must stay inside the project root ${root}; additional directories can be allowed in settings: permissions.additional_directories, or an allow rule naming the file by absolute or ~/ path (Read(//srv/docs/**), Read(~/notes/**)) in the user's settings or a trusted project's`,
  });
  expect((await check('/etc/passwd'))?.reason).toMatch(/^\/etc\/passwd is outside the project: paths must stay inside the project root /);
  expect((await check(undefined))?.reason).toMatch(/^could not read a file path from the call/);
  expect((await check('a\u0000b'))?.reason).toMatch(/NUL byte/);
  expect((await check('loop-a'))?.reason).toMatch(/symbolic link loop/);
});

test('calls without a path target are left to the other layers', async () => {
  const request = { toolName: 'bash', tool: undefined, input: {}, category: 'exec', mode: 'bypassPermissions', sessionId: 's', projectRoot: root } as const;
  expect(await rawHooks(booted.kernel).checkPermission.promise({ ...request, target: { kind: 'command', command: 'cat /etc/passwd' } })).toMatchObject({ layer: 'permission-mode' });
  expect(await rawHooks(booted.kernel).checkPermission.promise({ ...request, target: { kind: 'none' } })).toMatchObject({ layer: 'permission-mode' });
});

test('without a PermissionSettings service only the project root is allowed; a failing service allows no more, loudly', async () => {
  const plain = await bootKernel([], [sandbox], { projectRoot: root, homeDir: home });
  const request = (p: string): PermissionRequest => ({ toolName: 'read_file', tool: fileTool, input: { path: p }, category: 'read', target: { kind: 'path', path: p }, mode: 'bypassPermissions', sessionId: 's', projectRoot: root });
  expect(await rawHooks(plain.kernel).checkPermission.promise(request('../extra/x'))).toMatchObject({ decision: 'deny', layer: 'permission-sandbox' });
  expect(await rawHooks(plain.kernel).checkPermission.promise(request('src/a.ts'))).toMatchObject({ decision: 'allow' });

  const broken = definePlugin({
    name: 'broken-settings',
    bindings: new ContainerModule(({ bind }) => void bind(TOKENS.PermissionSettings).toConstantValue({ additionalDirectories: () => { throw new Error('settings not loaded'); }, defaultMode: () => undefined })),
  });
  const failing = await bootKernel([], [sandbox, broken], { projectRoot: root, homeDir: home });
  expect(await rawHooks(failing.kernel).checkPermission.promise(request('../extra/x'))).toMatchObject({ decision: 'deny' });
  expect(await rawHooks(failing.kernel).checkPermission.promise(request('../extra/y'))).toMatchObject({ decision: 'deny' });
  expect(failing.reporter.warnings).toEqual(['permission-sandbox: could not read permissions.additional_directories (settings not loaded); only the project root is allowed']);
});
