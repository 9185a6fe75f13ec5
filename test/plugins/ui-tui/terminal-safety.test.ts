// A hostile model or repository must not reach the terminal with control sequences: every render
// path (markdown, code blocks, links, tool calls and results, running tails, diffs, notices, dialogs).
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { ApprovalDialog, PickerView, TrustDialog } from '../../../plugins/ui-tui/app/dialogs.js';
import { EntryView } from '../../../plugins/ui-tui/app/entry-view.js';
import { InputBox } from '../../../plugins/ui-tui/app/input-box.js';
import { RunningToolView } from '../../../plugins/ui-tui/app/tool-view.js';
import { terminalSafe } from '../../../plugins/ui-tui/app/terminal-safe.js';
import { until } from './helpers.js';

const OSC52 = '\u001b]52;c;ZWNobyBwd25lZA==\u0007';
const TITLE = '\u001b]0;owned\u001b\\';
const CLEAR = '\u001b[2J\u001b[H';
const BIDI = '\u202eexe.txt';
const EVIL = `${OSC52}${TITLE}${CLEAR}${BIDI}\rX\u0008\u009b31m`;

/** Anything but colour (SGR, which Ink itself writes) is a control sequence that must not appear. */
function assertSafe(frame: string | undefined): void {
  const withoutSgr = frame!.replace(/\u001b\[[0-9;]*m/g, '');
  expect(withoutSgr).not.toMatch(/[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/);
}

const call = (input: object, name = 'bash') => ({ id: 'c1', name, input: JSON.stringify(input) });

test('terminalSafe: sequences go, a stray escape becomes visible, other controls and bidi go, \\r starts a line', () => {
  expect(terminalSafe(`a${OSC52}b${TITLE}c\u009b2Jd`)).toBe('abcd');
  expect(terminalSafe('a\u001b')).toBe('a␛');
  expect(terminalSafe('50%\r100%\r\n\tx\u202e')).toBe('50%\n100%\n  x');
  expect(terminalSafe('plain ✓ text\n')).toBe('plain ✓ text\n');
  // The same character list as every other display path (config/terminal-safe.ts): marks, zero-width, separators.
  expect(terminalSafe('a\u061cb\u200bc\u2028d\u2066e\ufeff')).toBe('abcde');
});

test.each([
  ['assistant text', { kind: 'assistant', text: `Hello ${EVIL}` }],
  ['a code block', { kind: 'assistant', text: `\`\`\`sh\necho ${EVIL}\n\`\`\`` }],
  ['a markdown link', { kind: 'assistant', text: `[click ${OSC52}](https://x.test/${TITLE}) and <https://y.test/${CLEAR}>` }],
  ['thinking', { kind: 'thinking', text: `hmm ${EVIL}` }],
  ['a user prompt', { kind: 'user', text: `pasted ${EVIL}` }],
  ['a notice (MCP / hook output)', { kind: 'notice', level: 'warning', text: `MCP: db failed (${EVIL})` }],
  ['a command output', { kind: 'command', text: '/mcp', output: `server ${EVIL}` }],
  ['a tool call and result', { kind: 'tool', call: call({ command: `ls ${EVIL}` }), result: { toolCallId: 'c1', content: `file ${EVIL}\nnext`, isError: false }, durationMs: 5 }],
  ['an error result', { kind: 'tool', call: call({ command: 'x' }), result: { toolCallId: 'c1', content: `boom ${EVIL}`, isError: true }, durationMs: 5 }],
  ['a diff', { kind: 'tool', call: call({ file_path: `a${BIDI}.ts`, old_string: `x ${EVIL}`, new_string: `y ${EVIL}` }, 'edit_file'), result: { toolCallId: 'c1', content: 'ok', isError: false }, durationMs: 5 }],
])('%s is rendered without control sequences', (_name, entry) => {
  const view = render(createElement(EntryView, { entry: { id: 1, ...entry } as never, width: 80 }));
  assertSafe(view.lastFrame());
  view.unmount();
});

test('a running tool’s output tail is rendered without control sequences', () => {
  const view = render(createElement(RunningToolView, { tool: { call: call({ command: `run ${EVIL}` }), startedAt: 0, tail: `line ${EVIL}\nprogress 10%\rprogress 90%` }, now: 1000 }));
  assertSafe(view.lastFrame());
  expect(view.lastFrame()).toContain('progress 90%');
  view.unmount();
});

test('the approval, trust and picker dialogs show hostile text without control sequences', () => {
  const approval = render(
    createElement(ApprovalDialog, {
      request: {
        toolName: `bash${TITLE}`,
        input: { command: `rm -rf ~ ${BIDI}` },
        target: { kind: 'command', command: `echo hi ${CLEAR}${BIDI}` },
        verdict: { decision: 'ask', layer: 'permission-mode', reason: `because ${OSC52}` },
        toolCallId: 'c1',
      } as never,
      onAnswer: () => undefined,
    }),
  );
  assertSafe(approval.lastFrame());
  approval.unmount();
  const trust = render(createElement(TrustDialog, { pending: { projectRoot: `/p${TITLE}`, changed: false, settings: [{ file: `.mcp.json${BIDI}`, key: 'mcpServers', summary: `db (${EVIL})` }] }, onAnswer: () => undefined }));
  assertSafe(trust.lastFrame());
  trust.unmount();
  const picker = render(createElement(PickerView, { picker: { title: 'Resume', items: [{ label: `session ${EVIL}`, detail: `first prompt ${OSC52}`, value: 's1' }], resolve: () => undefined } as never }));
  assertSafe(picker.lastFrame());
  picker.unmount();
});

test('the command menu shows a skill’s or a project command’s hostile description and hint without control sequences', async () => {
  const commands = () => [{ name: 'deploy', description: `Deploy it ${EVIL}`, argumentHint: `[env${OSC52}]` }];
  const view = render(createElement(InputBox, { commands, history: [], active: true, onSubmit: () => true }));
  view.stdin.write('/de');
  await until(() => view.lastFrame()!.includes('/deploy'), () => view.lastFrame()!);
  assertSafe(view.lastFrame());
  expect(view.lastFrame()).toContain('Deploy it');
  view.unmount();
});
