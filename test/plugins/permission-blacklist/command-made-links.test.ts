/**
 * The blacklist's destructive verbs outside the project against what the command itself changes:
 * a link made by one segment of the line is not there when the line is checked, so the other
 * segments' targets are not literal paths inside the project; `/proc/self/cwd/…` and links there
 * (the command's directory, not MewCode's) are never inside; `link/..` is taken from where the
 * link leads. Verdicts only: nothing is executed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkCommand } from '../../../plugins/permission-blacklist/check.js';

let base: string;
let root: string;
let home: string;
let before: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-made-links-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, 'build'), { recursive: true });
  mkdirSync(path.join(home, 'sub'), { recursive: true });
  symlinkSync('/proc/self/cwd', path.join(root, 'pc'));
  symlinkSync(path.join(home, 'sub'), path.join(root, 'hl'));
  // MewCode runs in the project root: `/proc/self/cwd` resolved in its process is the project.
  before = process.cwd();
  process.chdir(root);
});
afterAll(() => {
  process.chdir(before);
  rmSync(base, { recursive: true, force: true });
});

const verdict = (command: string, startDir?: string) => checkCommand(command, { projectRoot: root, homeDir: home, ...(startDir ? { startDir } : {}) });

test.each([
  'ln -s "$HOME" lnk && rm -rf lnk/*',
  'ln -s ../home lnk2 && rm -rf lnk2/',
  'mkdir -p d && ln -s ../../home d/l && find d/l/ -name "victim*" -delete',
  'ln -s ../home lnk4 && chmod -R 777 lnk4/',
  'rm -rf lnk/* & ln -s ~ lnk',
  'for i in 1 2; do rm -rf lnk/*; ln -sfn ../home lnk; done',
  'mv build b2 && rm -rf b2/x',
  'git checkout evil && rm -rf lnk/',
  'tar xf links.tar; rm -rf lnk/*',
  'cp -a ../home h && rm -rf h/*',
  'cd ../home && rm -rf /proc/self/cwd/*',
  `cd ../home && rm -rf ${'$'}{PWD:-x}/../project/pc/*`,
  'cd ../home && rm -rf ../project/pc/*',
  'rm -rf hl/../*',
  'rm -rf hl/../sub2',
  'rm -rf /dev/fd/3/x 3< ../home',
])('%s is denied', async (command) => {
  expect(await verdict(command)).toMatchObject({ fromRawText: false });
});

test.each([
  'rm -rf build && mkdir build',
  'cp a b && rm -rf build',
  'git status && rm -rf build/x',
  'ln -s a b && ls',
  'rm -rf pc-other build/y',
])('%s is not', async (command) => {
  expect(await verdict(command)).toBeUndefined();
});

test('under the OS sandbox (the rest read-only) a line with a link maker is judged as written; without it, not', async () => {
  for (const command of ['git checkout main && rm -rf build', 'mv a b && rm -rf build/tmp']) {
    expect(await checkCommand(command, { projectRoot: root, homeDir: home, sandboxed: true })).toBeUndefined();
    expect(await verdict(command)).toBeDefined();
  }
});
