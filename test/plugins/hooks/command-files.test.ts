/** What a project's hook command may name in the project before it runs (command-files.ts). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, test } from '@jest/globals';
import { projectCommandProblem } from '../../../plugins/hooks/command-files.js';

let base: string;
let root: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-hook-files-')));
  root = path.join(base, 'project');
  mkdirSync(path.join(root, 'hooks'), { recursive: true });
  writeFileSync(path.join(base, 'evil.sh'), 'echo pwned');
  writeFileSync(path.join(root, 'hooks', 'ok.sh'), 'echo ok');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

test('plain scripts, npm .bin links inside the project and ordinary commands pass', () => {
  mkdirSync(path.join(root, 'node_modules', 'eslint', 'bin'), { recursive: true });
  mkdirSync(path.join(root, 'node_modules', '.bin'));
  writeFileSync(path.join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '');
  symlinkSync('../eslint/bin/eslint.js', path.join(root, 'node_modules', '.bin', 'eslint'));
  for (const command of ['sh hooks/ok.sh', '"$CLAUDE_PROJECT_DIR"/hooks/ok.sh --fix', 'node_modules/.bin/eslint . && echo done', 'npm test', 'echo $HOME > /dev/null', 'cat ~/.bashrc']) {
    expect({ command, problem: projectCommandProblem(command, root) }).toEqual({ command, problem: undefined });
  }
});

test('a script linked out, one reached through a directory link out, and a FIFO are refused, naming the file', () => {
  symlinkSync(path.join(base, 'evil.sh'), path.join(root, 'hooks', 'link.sh'));
  symlinkSync(base, path.join(root, 'tools'));
  execFileSync('mkfifo', [path.join(root, 'hooks', 'pipe.sh')]);
  expect(projectCommandProblem('bash hooks/link.sh', root)).toMatch(/^refusing to run the project's hook: hooks\/link\.sh: it is a link to .*evil\.sh, outside the project/);
  expect(projectCommandProblem('${CLAUDE_PROJECT_DIR}/tools/evil.sh', root)).toMatch(/tools\/evil\.sh: it is a link to .*evil\.sh, outside the project/);
  expect(projectCommandProblem("X=1 sh './hooks/pipe.sh'", root)).toMatch(/hooks\/pipe\.sh: it is a FIFO/);
  expect(projectCommandProblem('cd tools && ./evil.sh', root)).toMatch(/tools: it is a link to/);
});

test('a script linked out from a project directory named `..hooks` is refused too (the name is inside the project)', () => {
  mkdirSync(path.join(root, '..hooks'));
  symlinkSync(path.join(base, 'evil.sh'), path.join(root, '..hooks', 'link.sh'));
  expect(projectCommandProblem('bash ..hooks/link.sh', root)).toMatch(/^refusing to run the project's hook: \.\.hooks\/link\.sh: it is a link to .*evil\.sh, outside the project/);
});
