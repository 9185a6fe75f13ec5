// How run events become the scrollback (written once) and the live region (redrawn).
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import { thinkingText } from '../../../plugins/ui-tui/app/entry-view.js';
import { renderMarkdown } from '../../../plugins/ui-tui/app/markdown.js';
import { FinishedToolView } from '../../../plugins/ui-tui/app/tool-view.js';
import { LiveRegion } from '../../../plugins/ui-tui/app/live-region.js';
import { committablePrefix, MAX_LIVE_CHARS } from '../../../plugins/ui-tui/model/stream-split.js';
import { MAX_TAIL_CHARS, UiStore } from '../../../plugins/ui-tui/model/ui-store.js';

const status = { provider: 'p', model: 'm', mode: 'default' as const, sandbox: 'none', contextWindow: 1000, contextTokens: 0, sessionTokens: 0 };
const call = (id: string, name = 'read_file', input = '{}') => ({ id, name, input });

function store(now = () => 0) {
  return new UiStore(status, now);
}

test('streamed text goes to the scrollback a paragraph at a time, never inside a code fence', () => {
  const s = store();
  s.apply({ type: 'text', text: 'First paragraph.\n' });
  expect(s.snapshot.entries).toEqual([]);
  s.apply({ type: 'text', text: '\nSecond ' });
  expect(s.snapshot.entries.map((e) => e.kind === 'assistant' && e.text)).toEqual(['First paragraph.']);
  expect(s.snapshot.streamingText).toBe('Second ');
  s.apply({ type: 'text', text: 'one.\n\n```js\nconst a = 1;\n\nconst b = 2;\n' });
  expect(s.snapshot.entries).toHaveLength(2);
  expect(s.snapshot.streamingText).toBe('```js\nconst a = 1;\n\nconst b = 2;\n');
  s.apply({ type: 'done', reason: 'completed', finalText: '', usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, iterations: 1 });
  expect(s.snapshot.entries.map((e) => e.kind)).toEqual(['assistant', 'assistant', 'assistant']);
  expect(s.snapshot.streamingText).toBe('');
});

test('committablePrefix: nothing before the first blank line; a blank line at the very start does not count', () => {
  expect(committablePrefix('')).toBe(0);
  expect(committablePrefix('\n\nabc')).toBe(0);
  expect(committablePrefix('a\n')).toBe(0);
  expect(committablePrefix('a\n\n')).toBe(3);
  expect(committablePrefix('a\n\n```\nx\n\ny')).toBe(3);
  expect(committablePrefix('a\n\n```\nx\n```\n\ny')).toBe(14);
});

test('thinking is finished before the text that follows it; tools start and end in the order they report', () => {
  const s = store();
  s.apply({ type: 'thinking', thinking: 'Let me look.' });
  s.apply({ type: 'text', text: 'Looking' });
  s.apply({ type: 'tool_start', call: call('1') });
  s.apply({ type: 'tool_start', call: call('2') });
  expect(s.snapshot.running.map((r) => r.call.id)).toEqual(['1', '2']);
  s.apply({ type: 'tool_progress', call: call('2'), progress: { progress: 5, message: 'line 5' } });
  expect(s.snapshot.running[1]!.tail).toBe('line 5');
  s.apply({ type: 'tool_end', call: call('1'), result: { toolCallId: '1', content: 'ok', isError: false }, durationMs: 5 });
  expect(s.snapshot.running.map((r) => r.call.id)).toEqual(['2']);
  expect(s.snapshot.entries.map((e) => e.kind)).toEqual(['thinking', 'assistant', 'tool']);
});

test('a retry notice becomes a countdown line that the next output removes; compaction shows while it runs', () => {
  let now = 1_000;
  const s = store(() => now);
  s.apply({ type: 'notice', message: 'anthropic request overloaded (529); retrying in 2.5 s (attempt 2 of 4)' });
  expect(s.snapshot.entries).toEqual([]);
  const view = render(createElement(LiveRegion, { state: s.snapshot, now: (now += 1000), width: 80, maxLines: 20 }));
  expect(view.lastFrame()).toContain('retrying in 2 s (attempt 2 of 4)');
  s.apply({ type: 'text', text: 'back' });
  expect(s.snapshot.progress).toEqual([]);
  s.apply({ type: 'compaction_start', reason: 'auto' });
  view.rerender(createElement(LiveRegion, { state: s.snapshot, now: (now += 3000), width: 80, maxLines: 20 }));
  expect(view.lastFrame()).toContain('Compacting the conversation (auto)… 3s');
  s.apply({ type: 'compaction_end', reason: 'auto', changed: true });
  expect(s.snapshot.progress).toEqual([]);
  expect(s.snapshot.entries.at(-1)).toMatchObject({ kind: 'notice', text: 'Compacted the conversation (auto).' });
});

test('usage: context is the last request, session tokens add up', () => {
  const s = store();
  s.apply({ type: 'usage', usage: { input: 100, output: 20, cacheRead: 300, cacheWrite: 0 } });
  s.apply({ type: 'usage', usage: { input: 10, output: 5, cacheRead: 400, cacheWrite: 0 } });
  expect([s.snapshot.status.contextTokens, s.snapshot.status.sessionTokens]).toEqual([415, 835]);
});

test('the live region stays within its lines however long the streamed text is', () => {
  const s = store();
  // (under MAX_LIVE_CHARS, so it all stays live; beyond that it goes to the scrollback)
  s.apply({ type: 'text', text: Array.from({ length: 300 }, (_, i) => `line ${i}`).join('\n') });
  const view = render(createElement(LiveRegion, { state: s.snapshot, now: 0, width: 80, maxLines: 12 }));
  const lines = view.lastFrame()!.split('\n');
  expect(lines.length).toBeLessThanOrEqual(12);
  expect(view.lastFrame()).toContain('line 299');
  expect(view.lastFrame()).toMatch(/… \d+ lines above/);
});

test('an edit is shown as a diff; a failed one as its error', () => {
  const edit = call('e', 'edit_file', JSON.stringify({ file_path: 'a.ts', old_string: 'x = 1\ny = 2\n', new_string: 'x = 1\ny = 3\n' }));
  const ok = render(createElement(FinishedToolView, { call: edit, result: { toolCallId: 'e', content: 'Edited a.ts', isError: false }, durationMs: 12 }));
  expect(ok.lastFrame()).toContain('✓ edit_file(a.ts) 12ms');
  expect(ok.lastFrame()).toMatch(/ {2}x = 1\n.*- y = 2\n.*\+ y = 3/);
  const failed = render(createElement(FinishedToolView, { call: edit, result: { toolCallId: 'e', content: 'edit_file: old_string not found', isError: true }, durationMs: 3 }));
  expect(failed.lastFrame()).toContain('✗ edit_file(a.ts)');
  expect(failed.lastFrame()).toContain('old_string not found');
  expect(failed.lastFrame()).not.toContain('+ y = 3');
});

test('a to-do list is shown whole, not cut to the first result lines', () => {
  const todos = Array.from({ length: 9 }, (_, i) => `[ ] step ${i + 1}`);
  const list = call('t', 'todo_write', JSON.stringify({ todos: [] }));
  const shown = render(createElement(FinishedToolView, { call: list, result: { toolCallId: 't', content: ['To-do list updated: 9 items (0 completed, 0 in progress, 9 pending).', ...todos].join('\n'), isError: false }, durationMs: 1 }));
  expect(shown.lastFrame()).toContain('[ ] step 9');
  expect(shown.lastFrame()).not.toContain('more lines');
});

test('thinking is dimmed and collapsed to its first lines unless Ctrl+T expanded it', () => {
  const text = 'one\ntwo\nthree\nfour';
  expect(thinkingText(text, false)).toBe('✻ one\ntwo\n  … 2 more lines of thinking (Ctrl+T shows thinking in full)');
  expect(thinkingText(text, true)).toBe('✻ one\ntwo\nthree\nfour');
  expect(thinkingText('one\ntwo', false)).toBe('✻ one\ntwo');
  const s = store();
  s.toggleThinking();
  expect(s.snapshot.thinkingExpanded).toBe(true);
});

test('a progress line outside a run (MCP servers connecting) shows until it ends', () => {
  const s = store(() => 0);
  s.startProgress('mcp', 'Connecting MCP servers: db…');
  const view = render(createElement(LiveRegion, { state: s.snapshot, now: 2000, width: 80, maxLines: 20 }));
  expect(view.lastFrame()).toContain('Connecting MCP servers: db… 2s');
  s.endProgress('mcp');
  expect(s.snapshot.progress).toEqual([]);
});

test('many running calls with tails: tails dropped, calls past the budget counted, the region within its lines', () => {
  const s = store();
  for (let i = 0; i < 30; i++) s.apply({ type: 'tool_start', call: call(String(i), 'sleep_read') });
  for (let i = 0; i < 30; i++) s.apply({ type: 'tool_progress', call: call(String(i)), progress: { progress: 1, message: 'a\nb\nc\nd\ne' } });
  const view = render(createElement(LiveRegion, { state: s.snapshot, now: 0, width: 80, maxLines: 20 }));
  const frame = view.lastFrame()!;
  expect(frame.split('\n').length).toBeLessThanOrEqual(20);
  expect(frame).toContain('… and 21 more running');
  expect(frame).not.toMatch(/^\s+e$/m);
});

test('an approval request moves what streamed before it to the scrollback', () => {
  const s = store();
  s.apply({ type: 'text', text: 'I will write the file.' });
  s.apply({ type: 'approval_request', request: {} as never });
  expect(s.snapshot.streamingText).toBe('');
  expect(s.snapshot.entries.map((e) => e.kind === 'assistant' && e.text)).toEqual(['I will write the file.']);
});

test('markdown: list items render their inline markup; escape sequences in the model’s text are stripped', () => {
  const out = renderMarkdown('- **a.txt** now says `ALPHA`\n- plain \u001b[2Jgone\n\n1. *one* two', 80);
  expect(out).not.toContain('**');
  expect(out).not.toContain('`');
  expect(out).toContain('a.txt now says ALPHA');
  expect(out).not.toContain('\u001b[2J');
  expect(out).toMatch(/1\. .*one.* two/);
  expect(thinkingText('a\nb\nc', false)).toContain('… 1 more line of thinking');
});

test('a huge streamed code block or paragraph does not stay live: past MAX_LIVE_CHARS it is committed at its last line, the fence closed and reopened', () => {
  const s = store();
  s.apply({ type: 'text', text: '```ts\n' });
  const line = `const x = ${'1'.repeat(60)};\n`;
  let streamed = 0;
  while (streamed < 10 * MAX_LIVE_CHARS) {
    s.apply({ type: 'text', text: line });
    streamed += line.length;
    expect(s.snapshot.streamingText.length).toBeLessThanOrEqual(MAX_LIVE_CHARS + line.length + 10);
  }
  expect(s.snapshot.streamingText.startsWith('```ts\n')).toBe(true);
  const committed = s.snapshot.entries.map((e) => (e.kind === 'assistant' ? e.text : ''));
  expect(committed.length).toBeGreaterThan(5);
  for (const text of committed) expect(text).toMatch(/^```ts\n[\s\S]*\n```$/);
  // a paragraph with no blank line: cut at a line end, nothing lost
  const p = store();
  for (let i = 0; i < 200; i++) p.apply({ type: 'text', text: `word ${i} ${'x'.repeat(50)}\n` });
  const all = [...p.snapshot.entries.map((e) => (e.kind === 'assistant' ? e.text : '')), p.snapshot.streamingText].join('\n');
  expect(all.replace(/\n+/g, '\n')).toBe(Array.from({ length: 200 }, (_, i) => `word ${i} ${'x'.repeat(50)}`).join('\n') + '\n');
  expect(p.snapshot.streamingText.length).toBeLessThanOrEqual(MAX_LIVE_CHARS);
});

test('a running call keeps at most MAX_TAIL_CHARS of a progress message', () => {
  const s = store();
  s.apply({ type: 'tool_start', call: call('1') });
  s.apply({ type: 'tool_progress', call: call('1'), progress: { progress: 1, message: `${'a'.repeat(1_000_000)}END` } });
  expect(s.snapshot.running[0]!.tail).toHaveLength(MAX_TAIL_CHARS);
  expect(s.snapshot.running[0]!.tail!.endsWith('END')).toBe(true);
});
