// A custom command file typed as `/name args` in the terminal UI (tmux) reaches the model expanded.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario } from './helpers.js';
import { printScreen, TmuxTerminal } from './tmux.js';

let bin = '';
const terminals: TmuxTerminal[] = [];

beforeAll(async () => {
  execFileSync('tmux', ['-V']);
  bin = await prepareCli();
});
afterEach(() => {
  for (const t of terminals.splice(0)) t.kill();
});
afterAll(() => removeTempDirs());

test('/greet Alice in the terminal UI sends the expanded command file', async () => {
  await scenario([{ text: 'Greeted.' }], async (s) => {
    mkdirSync(join(s.home, '.mewcode/commands'), { recursive: true });
    writeFileSync(join(s.home, '.mewcode/commands/greet.md'), '---\ndescription: Greet someone\n---\nSay hello to $0 politely\n');
    const t = new TmuxTerminal();
    terminals.push(t);
    t.start(bin, [], s.cwd, s.env);
    await t.waitFor('type a prompt, / for commands');
    t.type('/greet Alice');
    t.keys('Enter');
    const done = await t.waitFor('Greeted.');
    printScreen('custom command', done);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toBe('Say hello to Alice politely');
  });
}, 60_000);
