// End to end: the real `mewcode` (no -p) in a tmux terminal against the scripted model server.
// Keys go in with send-keys, screens come back with capture-pane and are printed in the output.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';
import { EXITED, printScreen, TmuxTerminal } from './tmux.js';

const TEST_TIMEOUT_MS = 90_000;
let bin = '';
const terminals: TmuxTerminal[] = [];

beforeAll(async () => {
  execFileSync('tmux', ['-V']); // a clear failure when tmux is missing (.ci/run installs it)
  bin = await prepareCli();
});
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});
afterAll(() => removeTempDirs());

function open(s: Scenario, args: string[] = []): TmuxTerminal {
  const terminal = new TmuxTerminal();
  terminals.push(terminal);
  terminal.start(bin, args, s.cwd, s.env);
  return terminal;
}

const PROMPT_READY = 'type a prompt, / for commands';

/** Once idle: Ctrl+C twice, then the exit code the pane's shell printed. */
async function leave(t: TmuxTerminal): Promise<number> {
  await t.waitFor(PROMPT_READY, 'an idle prompt');
  t.keys('C-c');
  await t.waitFor('Press Ctrl+C again to exit');
  t.keys('C-c');
  const screen = await t.waitFor(EXITED, 'the exit line');
  return Number(EXITED.exec(screen)![1]);
}

test(
  'a prompt streams its answer into the terminal',
  async () => {
    const answer = 'Streaming works: first part arrives, then the second part, and at last the end of the answer.\n\n```js\nconst answer = 42;\n```';
    // Chunks far enough apart that a loaded machine still draws, and the poll still sees, a partial answer.
    await scenario([{ text: answer, chunkDelayMs: 200 }], async (s) => {
      const t = open(s);
      await t.waitFor(PROMPT_READY);
      t.type('say something');
      t.keys('Enter');
      // Mid-stream: the beginning is on screen before the end has arrived.
      const partial = await t.waitFor((screen) => screen.includes('Streaming works') && !screen.includes('end of the answer.'), 'a partly streamed answer');
      printScreen('streaming', partial);
      const done = await t.waitFor('const answer = 42;');
      printScreen('streamed answer', done);
      expect(done).toContain('> say something');
      // Once the fence has closed (the run is over), the code block is highlighted: the keyword and
      // the number have colours of their own.
      await t.waitFor(PROMPT_READY, 'an idle prompt');
      expect(t.screenWithColours()).toMatch(/\u001b\[\d+mconst\u001b\[39m answer = \u001b\[\d+m42\u001b\[39m;/);
      expect(await leave(t)).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  'a newcomer: trust dialog, a prompt, a write approved with 1 and shown as a diff, the whole conversation in the scrollback after exit',
  async () => {
    const turns = [
      { text: 'I will create the file.', toolCalls: [{ name: 'write_file', input: { path: 'notes.md', content: '# Notes\nkiwi\n' } }] },
      { text: 'Created **notes.md** with two lines.' },
    ];
    await scenario(turns, async (s) => {
      mkdirSync(join(s.cwd, 'extra'));
      mkdirSync(join(s.cwd, '.mewcode'));
      writeFileSync(join(s.cwd, '.mewcode', 'settings.yaml'), 'permissions:\n  additional_directories:\n    - extra\n');
      const t = open(s);
      const trust = await t.waitFor('Do you trust the files in this project?');
      printScreen('trust dialog', trust);
      expect(trust).toContain('.mewcode/settings.yaml: permissions.additional_directories');
      await new Promise((r) => setTimeout(r, 500)); // dialogs ignore keys typed ahead (ARM_MS)
      t.keys('1');
      await t.waitFor(PROMPT_READY);
      t.type('make a notes file');
      t.keys('Enter');
      const dialog = await t.waitFor('Allow write_file?');
      printScreen('approval dialog', dialog);
      expect(dialog).toMatch(/target\s+notes\.md/);
      expect(dialog).toContain('4. No, deny (Esc)');
      await new Promise((r) => setTimeout(r, 500));
      t.keys('1');
      const after = await t.waitFor('Created notes.md with two lines.');
      printScreen('after approving', after);
      expect(after).toMatch(/✓ write_file\(notes\.md\)/);
      expect(after).toContain('+ # Notes');
      expect(readFileSync(join(s.cwd, 'notes.md'), 'utf8')).toBe('# Notes\nkiwi\n');
      expect(await leave(t)).toBe(0);
      const scrollback = t.screen(true);
      printScreen('scrollback after exit (capture-pane -S -)', scrollback);
      const order = ['Do you trust the files in this project?', '> make a notes file', 'I will create the file.', '✓ write_file(notes.md)', '+ kiwi', 'Created notes.md with two lines.', '[mewcode exited 0]'];
      const positions = order.map((text) => scrollback.indexOf(text));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect([...positions].sort((a, b) => a - b)).toEqual(positions);
      expect(JSON.parse(readFileSync(join(s.home, '.mewcode', 'trust.json'), 'utf8')).projects).toHaveProperty([s.cwd]);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  'Esc in the approval dialog denies: the model gets "User denied" and nothing is written',
  async () => {
    const turns = [{ toolCalls: [{ name: 'write_file', input: { path: 'no.txt', content: 'x\n' } }] }, { text: 'Understood, I will not write it.' }];
    await scenario(turns, async (s) => {
      const t = open(s);
      await t.waitFor(PROMPT_READY);
      t.type('write no.txt');
      t.keys('Enter');
      await t.waitFor('Allow write_file?');
      t.keys('Escape');
      const after = await t.waitFor('Understood, I will not write it.');
      printScreen('denied with Esc', after);
      expect(after).toMatch(/✗ write_file\(no\.txt\)/);
      expect(after).toContain('User denied');
      expect(existsSync(join(s.cwd, 'no.txt'))).toBe(false);
      const results = JSON.stringify(s.requests[1]!.body.messages.at(-1));
      expect(results).toContain('User denied');
      expect(await leave(t)).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  'Ctrl+C cancels a long bash command while its output tail is on screen; the session stays usable',
  async () => {
    const command = 'for i in $(seq 1 300); do echo "tick $i"; sleep 0.1; done';
    const turns = [{ toolCalls: [{ name: 'bash', input: { command } }] }, { text: 'Next prompt answered.' }];
    await scenario(turns, async (s) => {
      const t = open(s, ['--allowedTools', 'Bash']);
      await t.waitFor(PROMPT_READY);
      t.type('count slowly');
      t.keys('Enter');
      const running = await t.waitFor(/running \d[\d.]*s[\s\S]*tick \d+/, 'the running command and its output tail');
      printScreen('bash running (output tail)', running);
      t.keys('C-c');
      const cancelled = await t.waitFor('Cancelled.');
      printScreen('after Ctrl+C', cancelled);
      expect(cancelled).toMatch(/✗ bash\(for i in/);
      expect(cancelled).not.toContain('tick 300');
      await t.waitFor(PROMPT_READY);
      t.type('are you there?');
      t.keys('Enter');
      await t.waitFor('Next prompt answered.');
      expect(s.requests).toHaveLength(2);
      expect(await leave(t)).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  'Shift+Tab switches to acceptEdits while idle: the next write runs without a dialog',
  async () => {
    const turns = [{ toolCalls: [{ name: 'write_file', input: { path: 'auto.txt', content: 'auto\n' } }] }, { text: 'Written without asking.' }];
    await scenario(turns, async (s) => {
      const t = open(s);
      await t.waitFor('mode: default');
      t.keys('BTab');
      const switched = await t.waitFor('mode: acceptEdits');
      printScreen('after Shift+Tab', switched);
      t.type('write auto.txt');
      t.keys('Enter');
      const after = await t.waitFor('Written without asking.');
      printScreen('write in acceptEdits', after);
      expect(after).not.toContain('Allow write_file?');
      expect(readFileSync(join(s.cwd, 'auto.txt'), 'utf8')).toBe('auto\n');
      expect(await leave(t)).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  '/resume picks a saved session with search; the next request carries its history',
  async () => {
    await scenario([{ text: 'Noted: kiwi.' }, { text: 'The word was kiwi.' }], async (s) => {
      expect((await s.run(['-p', 'remember the word kiwi'])).code).toBe(0);
      const t = open(s);
      await t.waitFor(PROMPT_READY);
      t.type('/resume');
      t.keys('Enter');
      const picker = await t.waitFor('Resume a session');
      printScreen('resume picker', picker);
      t.type('kiwi');
      await t.waitFor('search: kiwi');
      t.keys('Enter');
      const resumed = await t.waitFor(/Resumed session \d{8}-\d{6}-[0-9a-f]{4}/);
      printScreen('resumed', resumed);
      expect(resumed).toContain('> remember the word kiwi');
      t.type('what was the word?');
      t.keys('Enter');
      await t.waitFor('The word was kiwi.');
      const texts = (s.requests[1]!.body.messages as { role: string; content: { text?: string }[] }[]).map((m) => `${m.role}: ${m.content.map((b) => b.text ?? '').join('')}`);
      expect(texts).toEqual(['user: remember the word kiwi', 'assistant: Noted: kiwi.', 'user: what was the word?']);
      expect(await leave(t)).toBe(0);

      // --continue opens the latest session with its conversation on the screen.
      s.server.push({ text: 'Still kiwi.' });
      const again = open(s, ['--continue']);
      const continued = await again.waitFor(/Resumed session \d{8}-\d{6}-[0-9a-f]{4} \(4 messages\)/);
      printScreen('mewcode --continue', continued);
      expect(continued).toContain('> what was the word?');
      expect(continued).toContain('The word was kiwi.');
      expect(await leave(again)).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);

test(
  'the terminal closes (SIGHUP) while a sandboxed command runs: the run is cancelled as by Esc, and the git configuration the command planted is swept',
  async () => {
    const git = (cwd: string, ...args: string[]): string => execFileSync('git', ['-c', 'user.email=m@example.com', '-c', 'user.name=m', ...args], { cwd, encoding: 'utf8' });
    await scenario([], async (s) => {
      git(s.cwd, 'init', '-q', '-b', 'main');
      writeFileSync(join(s.cwd, 'README.md'), 'x\n');
      git(s.cwd, 'add', '-A');
      git(s.cwd, 'commit', '-q', '-m', 'init');
      const canary = join(s.home, 'fsmonitor-ran');
      // A nested repository whose config runs a program at the next `git status` there, then a long
      // wait; written so the command's analysis cannot see the protected path it writes.
      const plant = `git init -q sub && printf '[core]\\n\\tfsmonitor = "touch ${canary}; false"\\n' >> sub/.git/config && touch planted && sleep 60`;
      s.server.push({ toolCalls: [{ name: 'bash', input: { command: `echo ${Buffer.from(plant).toString('base64')} | base64 -d | sh` } }] }, { text: 'done' });
      const t = open(s);
      await t.waitFor(PROMPT_READY);
      t.type('plant it');
      t.keys('Enter');
      await t.waitFor(() => existsSync(join(s.cwd, 'planted')), 'the command to have planted its configuration', { timeoutMs: 30_000 });
      const panePid = t.command('display', '-p', '-t', 'main', '#{pane_pid}').trim();
      const pid = Number(execFileSync('pgrep', ['-P', panePid], { encoding: 'utf8' }).trim().split('\n')[0]);
      // What closing a terminal does: the server goes, every process of the pane gets SIGHUP.
      t.kill();
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && isAlive(pid)) await new Promise((r) => setTimeout(r, 100));
      expect(isAlive(pid)).toBe(false);
      git(join(s.cwd, 'sub'), 'status', '--porcelain');
      expect(existsSync(canary)).toBe(false);
    });
  },
  TEST_TIMEOUT_MS,
);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
