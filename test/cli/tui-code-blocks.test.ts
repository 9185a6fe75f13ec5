// Code blocks in the terminal UI, end to end in tmux: a fence still arriving is not highlighted
// (its language may be cut: ```pyth), the highlighter's messages never reach the conversation, a
// complete block is highlighted, and the languages users paste most are covered.
import { execFileSync } from 'node:child_process';
import { prepareCli, removeTempDirs, scenario, type Scenario } from './helpers.js';
import { EXITED, printScreen, TmuxTerminal } from './tmux.js';

const TEST_TIMEOUT_MS = 90_000;
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

function open(s: Scenario): TmuxTerminal {
  const terminal = new TmuxTerminal();
  terminals.push(terminal);
  terminal.start(bin, [], s.cwd, s.env);
  return terminal;
}

const PROMPT_READY = 'type a prompt, / for commands';
const HIGHLIGHTER_NOISE = /Could not find the language|did you forget to load|Deprecated as of|you specified could not be found/;

test(
  'a fence cut mid-language prints no highlighter warning; complete blocks are highlighted, Elixir and Haskell included',
  async () => {
    // The deltas cut the fence's language (```pyth | on), and pause there so the UI renders it.
    const deltas = ['Here is the fix:\n\n```pyth', 'on\nprint("hi")\n```\n\nIn Elixir:\n\n```elixir\nIO.puts "elixir"\n```\n\nIn Haskell:\n\n```haskell\nmain = putStrLn "haskell"\n```\n\nDone.'];
    await scenario([{ text: deltas, chunkDelayMs: 1500 }], async (s) => {
      const t = open(s);
      await t.waitFor(PROMPT_READY);
      t.type('fix it');
      t.keys('Enter');
      const partial = await t.waitFor('Here is the fix', 'the first delta');
      await new Promise((r) => setTimeout(r, 500));
      printScreen('mid-fence', t.screen());
      expect(t.screen(true)).not.toMatch(HIGHLIGHTER_NOISE);
      expect(partial).not.toMatch(HIGHLIGHTER_NOISE);
      const done = await t.waitFor('Done.', 'the whole answer');
      printScreen('answer', done);
      expect(t.screen(true)).not.toMatch(HIGHLIGHTER_NOISE);
      const coloured = t.screenWithColours();
      // Each block's string literal has a colour of its own.
      expect(coloured).toMatch(/\u001b\[\d+m"hi"/);
      expect(coloured).toMatch(/\u001b\[\d+m"elixir"/);
      expect(coloured).toMatch(/\u001b\[\d+m"haskell"/);
      await t.waitFor(PROMPT_READY, 'an idle prompt');
      t.keys('C-c');
      await t.waitFor('Press Ctrl+C again to exit');
      t.keys('C-c');
      const exit = await t.waitFor(EXITED, 'the exit line');
      expect(Number(EXITED.exec(exit)![1])).toBe(0);
    });
  },
  TEST_TIMEOUT_MS,
);
