/**
 * The sweep after each sandboxed command (git-sweep.ts) reads a planted git config as git reads it
 * (sdk/git-config-syntax.ts): a key git reads is seen however the file spells it, and a file git
 * refuses is set aside rather than taken for an empty one. On real repositories, with git itself
 * confirming that it reads core.fsmonitor from each hostile spelling.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gitBaseline, sweepGitDirs, QUARANTINE_SUFFIX } from '../../../plugins/sandbox-os/git-sweep.js';

let root: string;
const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: root, GIT_CONFIG_NOSYSTEM: '1' });
const git = (cwd: string, ...args: string[]): string => execFileSync('git', args, { cwd, stdio: 'pipe', env: env() }).toString();
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-sweep-syntax-')));
  git(root, 'init', '-q');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** A nested repository made by the "command", with `tail` appended to the config git init wrote; what the sweep set aside. */
async function plant(tail: string): Promise<string[]> {
  const baseline = await gitBaseline([root]);
  const since = Date.now() - 20; // file times lag the wall clock by a few ms
  git(root, 'init', '-q', 'sub');
  appendFileSync(path.join(root, 'sub', '.git', 'config'), tail);
  const { quarantined } = await sweepGitDirs([root], since, baseline);
  return quarantined.map((q) => path.relative(root, q.path));
}

/** What git itself reads as core.fsmonitor from a file holding `text` (empty when none). */
function gitFsmonitor(text: string): string {
  const probe = path.join(root, 'probe');
  writeFileSync(probe, text);
  try {
    return execFileSync('git', ['config', '--file', probe, '--get', 'core.fsmonitor'], { stdio: 'pipe', env: env() }).toString().trim();
  } catch {
    return '';
  }
}

test.each([
  ['a # comment line ending in a backslash', '[core]\n\t# harmless \\\n\tfsmonitor = "echo PWNED; true"\n'],
  ['a ; comment line ending in a backslash', '[core]\n; x \\\nfsmonitor = evil\n'],
  ['a comment after a value ending in a backslash', '[user]\n\tname = x # \\\n\temail = a@b\n[core]\n\tname = y ; \\\nfsmonitor = evil\n'],
  ['a comment after a section header ending in a backslash', '[core] # c \\\nfsmonitor = evil\n'],
  ['lone carriage returns', '[core]\r\tfsmonitor = evil\r'],
  ['a NUL byte in a subsection', '[core "fsmonitor\0"]\n\tx = evil\n'],
])('%s: git reads core.fsmonitor, and the sweep sets the config aside', async (_name, tail) => {
  expect(gitFsmonitor(tail)).toMatch(/evil|PWNED/);
  expect(await plant(tail)).toEqual(['sub/.git/config']);
  expect(existsSync(path.join(root, 'sub', '.git', `config${QUARANTINE_SUFFIX}`))).toBe(true);
});

test('a config git refuses (an unterminated quote, an unknown escape) is set aside, not taken for an empty one', async () => {
  expect(await plant('[user]\n\tname = "x\n[core]\n\tfsmonitor = evil\n')).toEqual(['sub/.git/config']);
  rmSync(path.join(root, 'sub'), { recursive: true, force: true });
  expect(await plant('[user]\n\tname = a\\qb\n')).toEqual(['sub/.git/config']);
});

test('comments ending in backslashes and odd spacing around keys that run nothing: left alone', async () => {
  expect(await plant('[user] # who \\\n\tname = "x y" ; \\\n\temail = a@b\n# more \\\n[core]\r\n\tfilemode = true\r\n')).toEqual([]);
});
