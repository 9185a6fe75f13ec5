// The built `mewcode` with the default plugins: `-p "/help"`, `-p "/compact"` and an unknown
// `/name` answer without a model request (the scripted server counts them).
import { prepareCli, removeTempDirs, scenario, singleJsonObject } from '../../cli/helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test.concurrent('-p "/help" lists the built-in commands with their hints: exit 0, stdout only', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['-p', '/help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Commands:\n/);
    expect(r.stdout).toMatch(/^ {2}\/compact \[focus\] +Compact the conversation now/m);
    expect(r.stdout).toMatch(/^ {2}\/help \[command\] +List the available commands, or describe one$/m);
    expect(r.stderr).toBe('');
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('-p "/compact": nothing to compact in a new session; with --continue and a focus, the summary request carries the focus and the next request the summary', async () => {
  const summary = '<analysis>a</analysis><summary>## 1. Primary request and intent\nRemember kiwi.</summary>';
  await scenario([{ text: 'Noted: kiwi.' }, { text: summary }, { text: 'The word was kiwi.' }], async (s) => {
    const empty = await s.run(['-p', '/compact']);
    expect([empty.code, empty.stdout]).toEqual([0, 'Nothing to compact: the conversation is empty.\n']);
    expect(s.requests).toHaveLength(0);

    expect((await s.run(['-p', 'remember the word kiwi'])).code).toBe(0);
    const compacted = await s.run(['-c', '-p', '/compact keep the secret word', '--output-format', 'json']);
    expect(compacted.code).toBe(0);
    expect(singleJsonObject(compacted.stdout)).toMatchObject({ type: 'result', is_error: false, command: 'compact' });
    expect(String(singleJsonObject(compacted.stdout).result)).toMatch(/^Compacted the conversation \(focus: keep the secret word\): 2 messages before, 2 messages now\.$/);
    expect(compacted.stderr).toMatch(/Compacted the conversation \(manual\): 1 older message \(~\d+ tokens\) replaced by a summary/);
    const asked = JSON.stringify(s.requests[1]!.body.messages);
    expect(asked).toContain('remember the word kiwi');
    expect(asked).toContain('The user asked this summary to pay particular attention to: keep the secret word');

    expect((await s.run(['-c', '-p', 'what was the word?'])).code).toBe(0);
    const next = s.requests[2]!.body.messages as { role: string; content: { text?: string }[] }[];
    expect(next.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(next[0]!.content[0]!.text).toContain('Remember kiwi.');
    expect(next[1]!.content[0]!.text).toBe('Noted: kiwi.');
  });
});

test.concurrent('an unknown /name: exit 2, the error names it and the available commands, no model request', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['-p', '/frobnicate the code']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('mewcode: unknown command /frobnicate; available: /agents, /compact, /help, /hooks, /plugin, /skills');
    expect(s.requests).toHaveLength(0);
  });
});
