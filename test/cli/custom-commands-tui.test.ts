// A custom command file typed as `/name args` in the terminal UI (tmux) reaches the model expanded,
// after the user's UserPromptSubmit hook judged the line as typed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario } from './helpers.js';
import { printScreen, TmuxTerminal } from './tmux.js';
import { records, setUpSubmitHook } from './prompt-submit-setup.js';

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

test('in the terminal UI a UserPromptSubmit hook judges /deploy prod as typed, once: a block stops it before its `!` line; allowed, its context reaches the model', async () => {
  await scenario([{ text: 'Deployed.' }], async (s) => {
    const log = join(s.home, 'submit.jsonl');
    setUpSubmitHook(s, log, 2, '');
    const t = new TmuxTerminal();
    terminals.push(t);
    t.start(bin, [], s.cwd, s.env);
    await t.waitFor('type a prompt, / for commands');
    t.type('/deploy prod');
    t.keys('Enter');
    printScreen('blocked command', await t.waitFor('no deploys today'));
    expect(existsSync(join(s.cwd, 'DEPLOY-RAN.marker'))).toBe(false);
    expect(s.requests).toHaveLength(0);
    expect(records(log).map((record) => record.prompt)).toEqual(['/deploy prod']);

    setUpSubmitHook(s, log, 0, 'SUBMIT-CONTEXT-80');
    const allowed = new TmuxTerminal();
    terminals.push(allowed);
    allowed.start(bin, [], s.cwd, s.env);
    await allowed.waitFor('type a prompt, / for commands');
    allowed.type('/deploy prod');
    allowed.keys('Enter');
    await allowed.waitFor('Deployed.');
    expect(existsSync(join(s.cwd, 'DEPLOY-RAN.marker'))).toBe(true);
    expect(records(log).map((record) => record.prompt)).toEqual(['/deploy prod', '/deploy prod']);
    const sent = JSON.stringify(s.requests[0]!.body.messages);
    expect(sent).toContain('Deploy prod now.');
    expect(sent).toContain('SUBMIT-CONTEXT-80');
  });
}, 90_000);
