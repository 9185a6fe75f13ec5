/**
 * Adversarial, through the built CLI: a repository commits links inside `.mewcode/` (or makes
 * `.mewcode` itself a link) so that MewCode's own housekeeping — the start-up clean-up of old
 * spill files and sessions, bash's spill files, transcripts, saved tool results, the audit log —
 * reads, writes or deletes outside the project. An attempt escapes if anything in the victim
 * area (a stand-in for the user's home, with backdated dotfiles) changes.
 */
import { afterAll, afterEach, expect, test } from '@jest/globals';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { removeTempDirs, scenario, tempDir, type Scenario } from '../cli/helpers.js';
import type { ScriptedTurn } from '../scripted-server/index.js';
import { securityTally } from './attempts.js';

const tally = securityTally('housekeeping-links');
afterAll(() => tally.save());
afterEach(() => removeTempDirs());

const OLD = new Date(Date.now() - 60 * 24 * 60 * 60 * 1000); // older than every clean-up's age limit
const DOTFILES = ['.bashrc', '.profile', '.gitconfig'];

/** A stand-in for the user's home: dotfiles and an old session-like directory, all backdated. */
function victimArea(dir = tempDir('mewcode-victim-')): string {
  for (const name of DOTFILES) writeFileSync(path.join(dir, name), `# ${name}: must survive\n`);
  const sessionLike = path.join(dir, '20200101-000000-abcd');
  mkdirSync(sessionLike);
  writeFileSync(path.join(sessionLike, 'conversation.jsonl'), 'precious\n');
  for (const name of [...DOTFILES, '20200101-000000-abcd/conversation.jsonl', '20200101-000000-abcd']) utimesSync(path.join(dir, name), OLD, OLD);
  return dir;
}

/** Every name under `dir` (but `skip`), with sizes and contents. */
function snapshot(dir: string, skip: readonly string[] = []): string {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => !skip.some((s) => name === s || name.startsWith(`${s}${path.sep}`)))
    .sort()
    .map((name) => {
      const info = lstatSync(path.join(dir, name));
      return info.isFile() ? `${name}:${info.size}:${readFileSync(path.join(dir, name), 'utf8').slice(0, 40)}` : `${name}/${info.isSymbolicLink() ? '@' : ''}`;
    })
    .join('\n');
}

interface Attempt {
  name: string;
  /** Plants links in the project (`s.cwd`); returns the directory to watch. */
  plant(s: Scenario): string;
  turns?: ScriptedTurn[];
  args?: string[];
  /** Names in the watched directory MewCode may write (the user's own `~/.mewcode`). */
  skip?: string[];
  check?(s: Scenario, stdout: string, stderr: string): void;
}

async function attempt(a: Attempt): Promise<void> {
  // The text turn waits a little, so the background clean-up has started before the run ends.
  const turns = a.turns ?? [{ text: 'done', delayMs: 400 }];
  await scenario(turns, async (s) => {
    mkdirSync(path.join(s.cwd, '.mewcode'), { recursive: true });
    const watched = a.plant(s);
    const before = snapshot(watched, a.skip);
    const r = await s.run(a.args ?? ['-p', 'hi', '--output-format', 'json'], { env: { MEWCODE_REQUIRE_SANDBOX: '1' } });
    // A second start runs the start-up clean-ups again, now that the first one may have left files behind.
    s.server.push({ text: 'again', delayMs: 400 });
    await s.run(['-p', 'hi'], { env: { MEWCODE_REQUIRE_SANDBOX: '1' } });
    const after = snapshot(watched, a.skip);
    tally.attempt(a.name, after !== before);
    expect(after).toBe(before);
    a.check?.(s, r.stdout, r.stderr);
  });
}

const refusedLink = /symbolic link|not a directory/;

test('tool-output → the home directory (absolute): start-up clean-up deletes no dotfile', () =>
  attempt({
    name: 'tool-output link to HOME, clean-up',
    plant: (s) => {
      victimArea(s.home);
      symlinkSync(s.home, path.join(s.cwd, '.mewcode', 'tool-output'));
      return s.home;
    },
    skip: ['.mewcode'],
    check: (_s, _out, stderr) => expect(stderr).toMatch(refusedLink),
  }));

test('tool-output → ../../victim (relative): start-up clean-up deletes nothing', () =>
  attempt({
    name: 'tool-output relative link, clean-up',
    plant: (s) => {
      const victim = victimArea();
      symlinkSync(path.relative(path.join(s.cwd, '.mewcode'), victim), path.join(s.cwd, '.mewcode', 'tool-output'));
      return victim;
    },
  }));

test('.mewcode itself → victim with an old tool-output/ and sessions/: nothing deleted, nothing written', () =>
  attempt({
    turns: LONG_RUN,
    name: '.mewcode link, clean-ups and writes',
    plant: (s) => {
      const victim = victimArea();
      mkdirSync(path.join(victim, 'tool-output'));
      mkdirSync(path.join(victim, 'sessions', '20200101-000000-abcd'), { recursive: true });
      for (const name of ['tool-output/1-old.log', 'sessions/20200101-000000-abcd/conversation.jsonl']) {
        writeFileSync(path.join(victim, name), 'old\n');
        utimesSync(path.join(victim, name), OLD, OLD);
      }
      for (const name of ['tool-output', 'sessions/20200101-000000-abcd', 'sessions']) utimesSync(path.join(victim, name), OLD, OLD);
      // The whole `.mewcode` is the link.
      rmdirSync(path.join(s.cwd, '.mewcode'));
      symlinkSync(victim, path.join(s.cwd, '.mewcode'));
      return victim;
    },
    check: (_s, _out, stderr) => expect(stderr).toMatch(refusedLink),
  }));

/** Old sessions are removed a little after start-up (the session plugin's CLEANUP_DELAY_MS): the run lasts longer. */
const LONG_RUN: ScriptedTurn[] = [{ text: 'done', delayMs: 2600 }];

test('sessions → victim: no transcript written there, no old session-named directory removed', () =>
  attempt({
    turns: LONG_RUN,
    name: 'sessions link, transcripts and expiry',
    plant: (s) => {
      const victim = victimArea();
      symlinkSync(victim, path.join(s.cwd, '.mewcode', 'sessions'));
      return victim;
    },
    check: (_s, _out, stderr) => expect(stderr).toMatch(refusedLink),
  }));

test('sessions → victim (relative): nothing written or removed', () =>
  attempt({
    turns: LONG_RUN,
    name: 'sessions relative link',
    plant: (s) => {
      const victim = victimArea();
      symlinkSync(path.relative(path.join(s.cwd, '.mewcode'), victim), path.join(s.cwd, '.mewcode', 'sessions'));
      return victim;
    },
  }));

const BIG_OUTPUT: ScriptedTurn[] = [
  { toolCalls: [{ id: 'call_big', name: 'bash', input: { command: 'seq 1 20000', description: 'long output' } }] },
  { text: 'done' },
];

test("bash's spill file is not written through tool-output → victim, and the result says the output was not saved", () =>
  attempt({
    name: 'bash spill through tool-output link',
    plant: (s) => {
      const victim = victimArea();
      symlinkSync(victim, path.join(s.cwd, '.mewcode', 'tool-output'));
      return victim;
    },
    turns: BIG_OUTPUT,
    args: ['-p', 'run it', '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
    check: (s) => {
      const results = JSON.stringify(s.requests[1]?.body.messages ?? []);
      expect(results).toContain('exit_code: 0'); // the call ran
      expect(results).toMatch(/could not be saved[^"]*symbolic link/);
    },
  }));

test("bash's spill file does not create a directory through a dangling tool-output link", () =>
  attempt({
    name: 'bash spill through dangling tool-output link',
    plant: (s) => {
      const victim = victimArea();
      symlinkSync(path.join(victim, 'new-dir'), path.join(s.cwd, '.mewcode', 'tool-output'));
      return victim;
    },
    turns: BIG_OUTPUT,
    args: ['-p', 'run it', '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
  }));

test("bash's spill file is not written when .mewcode itself → victim", () =>
  attempt({
    name: 'bash spill through .mewcode link',
    plant: (s) => {
      const victim = victimArea();
      mkdirSync(path.join(victim, 'tool-output'));
      rmdirSync(path.join(s.cwd, '.mewcode'));
      symlinkSync(victim, path.join(s.cwd, '.mewcode'));
      return victim;
    },
    turns: BIG_OUTPUT,
    args: ['-p', 'run it', '--output-format', 'json', '--permission-mode', 'bypassPermissions'],
  }));

test('a link planted inside a real tool-output/ to an old file outside: the outside file stays', () =>
  attempt({
    name: 'link inside tool-output, clean-up',
    plant: (s) => {
      const victim = victimArea();
      const spill = path.join(s.cwd, '.mewcode', 'tool-output');
      mkdirSync(spill);
      symlinkSync(path.join(victim, '.bashrc'), path.join(spill, '1-x.log'));
      return victim;
    },
  }));

/** The user's own UserPromptSubmit hook: every run then appends to `.mewcode/hooks.log`. */
function userHook(s: Scenario): void {
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'true' }] }] } }));
}

test('hooks.log → a file outside: the hook run is not logged through it', () =>
  attempt({
    name: 'hooks.log link',
    plant: (s) => {
      userHook(s);
      const victim = victimArea();
      symlinkSync(path.join(victim, '.bashrc'), path.join(s.cwd, '.mewcode', 'hooks.log'));
      return victim;
    },
    check: (_s, _out, stderr) => expect(stderr).toMatch(/hook runs are not logged: .*symbolic link/),
  }));

test('hooks.log under a relative .mewcode link: nothing written outside', () =>
  attempt({
    name: 'hooks.log through .mewcode link',
    plant: (s) => {
      userHook(s);
      const victim = victimArea();
      rmdirSync(path.join(s.cwd, '.mewcode'));
      symlinkSync(path.relative(s.cwd, victim), path.join(s.cwd, '.mewcode'));
      return victim;
    },
  }));

test('control: without links, an old spill file in a real tool-output/ is cleaned up (the clean-up did run)', async () => {
  await scenario([{ text: 'done', delayMs: 400 }, { text: 'done' }], async (s) => {
    const spill = path.join(s.cwd, '.mewcode', 'tool-output');
    mkdirSync(spill, { recursive: true });
    writeFileSync(path.join(spill, '1-old.log'), 'old\n');
    utimesSync(path.join(spill, '1-old.log'), OLD, OLD);
    await s.run(['-p', 'hi']);
    await s.run(['-p', 'hi']);
    expect(existsSync(path.join(spill, '1-old.log'))).toBe(false);
  });
});
