/**
 * Issue 8: a destructive verb whose target is not a literal path inside the project is denied —
 * expansions, `~`, `..` out of the project, a glob over the top, absolute paths outside, symlinks
 * leading out, relative targets after `cd` to an unknown directory, interpreters removing trees.
 * Verdicts only: nothing is executed.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkCommand } from '../../../plugins/permission-blacklist/check.js';

let base: string;
let root: string;
let home: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-outside-')));
  root = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(path.join(root, 'sub', 'deep'), { recursive: true });
  mkdirSync(path.join(root, 'build'), { recursive: true });
  mkdirSync(home, { recursive: true });
  symlinkSync(home, path.join(root, 'link-home'));
  symlinkSync(path.join(home, 'not-yet'), path.join(root, 'dangling'));
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

const verdict = (command: string, extra: { additionalDirectories?: string[]; startDir?: string } = {}) =>
  checkCommand(command, { projectRoot: root, homeDir: home, ...extra });

test.each([
  'rm -rf $X',
  'X=~; rm -rf $X',
  'rm -rf "$HOME"/',
  'rm -rf ${HOME:?}',
  'rm -rf "${DIR:?}"/',
  'rm -rf ~/..',
  'rm -rf ~/project/node_modules',
  'rm -rf $(echo ~)',
  'rm -rf `echo ~`',
  'rm -rf ../',
  'rm -rf ../../x',
  'rm -rf sub/../../x',
  'rm -rf *',
  'rm -rf ./*',
  'rm -rf .*',
  'rm -rf */../..',
  'rm -rf /opt/data',
  'rm -rf link-home/',
  'rm -rf link-home/x',
  'rm -r dangling',
  'rm -rf .',
  'cd $X && rm -rf build',
  'cd .. && rm -rf project',
  'cd sub && rm -rf ../../x',
  'find ~ -delete',
  'find ~ -name "*.tmp" -delete',
  'find / -name x -exec rm {} +',
  'find -L ~ -delete',
  'find $D -delete',
  'cd $X && find . -delete',
  'mv ~ /tmp/x',
  'mv ./a ~/b',
  'mv -t /tmp build',
  'chmod -R 700 ~',
  'chown -R nobody /opt',
  'chgrp -R staff ../',
  'dd if=/dev/zero of=~/disk.img',
  'dd if=/dev/zero of=../x',
  'truncate -s 0 ~/.bash_history',
  'shred -u ~/.ssh/id_rsa',
  'rsync -a --delete empty/ ~/',
  'rsync --remove-source-files ~/.ssh/ ./loot/',
  '$X -rf ~',
  '${x:-rm} -rf ~',
  'rm${IFS}-rf${IFS}~',
  '{rm,-rf,~}',
  'python3 -c "import shutil; shutil.rmtree(\'/tmp/x\')"',
  'python3 -c "import shutil, os; shutil.rmtree(os.path.expanduser(\'~\'))"',
  "python3 -c 'import os; os.system(\"rm -rf ~\")'",
  "perl -MFile::Path -e 'rmtree(\"/home\")'",
  "perl -e 'use File::Path qw(remove_tree); remove_tree($ENV{HOME})'",
  "ruby -rfileutils -e 'FileUtils.rm_rf(Dir.home)'",
  'node -e "require(\'fs\').rmSync(require(\'os\').homedir(), {recursive: true})"',
  "awk 'BEGIN{system(\"rm -rf ~\")}'",
  "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('..')\nEOF",
])('%j is denied', async (command) => {
  expect(await verdict(command)).toMatchObject({ pattern: expect.any(String) });
});

test.each([
  'rm -rf build',
  'rm -rf ./build/',
  'rm -rf sub/deep',
  'rm -rf *.o',
  'rm -rf build/*',
  'cd build && rm -rf *',
  'cd sub && rm -rf deep',
  'find . -name "*.pyc" -delete',
  'find build -delete',
  'mv a b',
  'mv build/out.js dist/',
  'chmod -R 755 .',
  'chmod -R u+w build',
  'dd if=/dev/zero of=./disk.img bs=1M count=1',
  'dd if=/dev/zero of=/dev/null count=1',
  'truncate -s 0 build/log.txt',
  'shred secret.txt',
  'rsync -a --delete src/ build/',
  'rsync -a ~/docs/ ./docs/', // copying in is not destructive
  'rm -f ~/x.txt', // not recursive: one file, not a tree
  'python3 -c "import shutil; shutil.rmtree(\'build\')"',
  'python3 -c "print(1)"',
  'node -e "require(\'fs\').rmSync(\'dist\', {recursive: true, force: true})"',
])('%j is allowed (no verdict)', async (command) => {
  expect(await verdict(command)).toBeUndefined();
});

test('the hit says why', async () => {
  expect(await verdict('rm -rf $X')).toMatchObject({ pattern: 'recursive rm of "$X", which is not a literal path inside the project', segment: 'rm -rf $X' });
  expect((await verdict('mv ~ /tmp/x'))!.pattern).toContain('mv of "~"');
});

test('additional directories count as inside', async () => {
  const extra = path.join(base, 'docs');
  mkdirSync(extra, { recursive: true });
  expect(await verdict(`rm -rf ${extra}/build`)).toMatchObject({ pattern: expect.any(String) });
  expect(await verdict(`rm -rf ${extra}/build`, { additionalDirectories: [extra] })).toBeUndefined();
});

test('targets resolve from the call\'s workdir', async () => {
  expect(await verdict('rm -rf ../build', { startDir: path.join(root, 'sub') })).toBeUndefined();
  expect(await verdict('rm -rf ../../x', { startDir: path.join(root, 'sub') })).toMatchObject({ pattern: expect.any(String) });
});
