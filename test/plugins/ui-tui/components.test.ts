// The terminal UI's dialogs, input and status line, rendered by ink-testing-library.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { ApprovalChoice, ApprovalRequest } from '../../../types/permissions.js';
import { APPROVAL_CHOICES, ARM_MS, ApprovalDialog, PickerView, TrustDialog } from '../../../plugins/ui-tui/app/dialogs.js';
import { INPUT_ROWS, InputBox, visibleWindow } from '../../../plugins/ui-tui/app/input-box.js';
import { StatusLine } from '../../../plugins/ui-tui/app/status-line.js';
import { KEYS, settle, until } from './helpers.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

/**
 * The arming delay the typed-ahead tests use: the dialogs' own (ARM_MS) is a few hundred ms, and a
 * test machine running the suite in parallel can stall a process that long between the render
 * and the keys, which would then count as typed after the dialog armed.
 */
const TEST_ARM_MS = Math.max(ARM_MS, 1500);

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    toolName: 'edit_file',
    tool: { name: 'edit_file', description: '', inputSchema: {}, readOnly: false, execute: async () => ({ content: '' }) },
    input: { file_path: 'src/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' },
    category: 'write',
    target: { kind: 'path', path: 'src/a.ts' },
    mode: 'default',
    sessionId: 's',
    projectRoot: '/p',
    verdict: { decision: 'ask', layer: 'permission-mode', reason: 'write tools ask in default mode' },
    toolCallId: 'call_1',
    pluginsMayAllow: true,
    allowRuleLifts: true,
    ...overrides,
  };
}

describe('approval dialog', () => {
  function open() {
    const answers: ApprovalChoice[] = [];
    const view = render(createElement(ApprovalDialog, { request: request(), onAnswer: (c: ApprovalChoice) => answers.push(c), armMs: 0 }));
    return { ...view, answers };
  }

  test('keys typed ahead or pasted as it opens (1, Enter, arrows) do not answer it; Esc still denies', async () => {
    const answers: ApprovalChoice[] = [];
    const view = render(createElement(ApprovalDialog, { request: request(), onAnswer: (c: ApprovalChoice) => answers.push(c), armMs: TEST_ARM_MS }));
    view.stdin.write('1');
    view.stdin.write(KEYS.enter);
    view.stdin.write(KEYS.down);
    view.stdin.write('3');
    await settle();
    expect(answers).toEqual([]);
    expect(view.lastFrame()).toContain('› 1.');
    await new Promise((r) => setTimeout(r, TEST_ARM_MS + 50));
    view.stdin.write('2');
    view.stdin.write('1'); // a second key before the re-render does not answer twice
    await until(() => answers.length > 0);
    await settle();
    expect(answers).toEqual(['allow_session']);
    const other = render(createElement(ApprovalDialog, { request: request(), onAnswer: (c: ApprovalChoice) => answers.push(c) }));
    other.stdin.write(KEYS.escape);
    await until(() => answers.length > 1);
    expect(answers).toEqual(['allow_session', 'deny']);
  });

  test('shows the tool, the target, the reason, the change and the four choices', () => {
    const { lastFrame } = open();
    const frame = lastFrame()!;
    expect(frame).toContain('Allow edit_file?');
    expect(frame).toMatch(/target\s+src\/a\.ts/);
    expect(frame).toMatch(/reason\s+write tools ask in default mode/);
    expect(frame).toContain('- const a = 1;');
    expect(frame).toContain('+ const a = 2;');
    for (const [i, c] of APPROVAL_CHOICES.entries()) expect(frame).toContain(`${i + 1}. ${c.label}`);
  });

  test("a settings file's ask rule offers only allow once and deny: a remembered answer would not lift it", async () => {
    const answers: ApprovalChoice[] = [];
    const ask = request({ verdict: { decision: 'ask', layer: 'permission-rules:project', reason: 'ask project rule "Edit(src/**)" matches' }, allowRuleLifts: false });
    const view = render(createElement(ApprovalDialog, { request: ask, onAnswer: (c: ApprovalChoice) => answers.push(c), armMs: 0 }));
    const frame = view.lastFrame()!;
    expect(frame).toContain('1. Yes, allow once');
    expect(frame).toContain('2. No, deny (Esc)');
    expect(frame).not.toContain('always allow');
    expect(frame).not.toContain('for this session');
    view.stdin.write('3'); // not offered: nothing happens
    view.stdin.write('2');
    await until(() => answers.length > 0);
    expect(answers).toEqual(['deny']);
  });

  test.each([
    ['1', 'allow_once'],
    ['2', 'allow_session'],
    ['3', 'allow_always'],
    ['4', 'deny'],
  ])('key %s answers %s', async (key, choice) => {
    const { stdin, answers } = open();
    stdin.write(key);
    await until(() => answers.length > 0);
    expect(answers).toEqual([choice]);
  });

  test('arrows move the selection and Enter confirms; 5 and other keys do nothing', async () => {
    const { stdin, answers, lastFrame } = open();
    stdin.write('5');
    stdin.write('x');
    await settle();
    expect(answers).toEqual([]);
    stdin.write(KEYS.down);
    stdin.write(KEYS.down);
    await until(() => lastFrame()!.includes('› 3.'), () => lastFrame()!);
    stdin.write(KEYS.up);
    stdin.write(KEYS.enter);
    await until(() => answers.length > 0);
    expect(answers).toEqual(['allow_session']);
  });

  test('Esc denies', async () => {
    const { stdin, answers } = open();
    stdin.write(KEYS.escape);
    await until(() => answers.length > 0);
    expect(answers).toEqual(['deny']);
  });
});

describe('trust dialog', () => {
  const pending = { projectRoot: '/work/p', changed: false, settings: [{ file: '.mcp.json', key: 'mcpServers', summary: 'db (npx db-server)' }] };

  test('lists what the project would run; 1 trusts, Esc does not', async () => {
    const answers: boolean[] = [];
    const view = render(createElement(TrustDialog, { pending, onAnswer: (t: boolean) => answers.push(t), armMs: 0 }));
    expect(view.lastFrame()).toContain('Do you trust the files in this project?');
    expect(view.lastFrame()).toContain('.mcp.json: mcpServers db (npx db-server)');
    view.stdin.write('1');
    await until(() => answers.length === 1);
    const other = render(createElement(TrustDialog, { pending: { ...pending, changed: true }, onAnswer: (t: boolean) => answers.push(t) }));
    expect(other.lastFrame()).toContain('changed since you trusted it');
    other.stdin.write(KEYS.escape);
    await until(() => answers.length === 2);
    expect(answers).toEqual([true, false]);
  });

  test("the interactive trust question lists a project skill whose ! lines would run (the trust scan's own entry)", async () => {
    const project = temp('trust-dialog-skill-');
    const dir = path.join(project, '.claude', 'skills', 'explain');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'SKILL.md'), '---\nname: explain\ndescription: Explain\n---\nChanges: !`git status --short`\n');
    const trust = await createWorkspaceTrust({ projectRoot: project, homeDir: temp('trust-dialog-home-'), env: {} });
    const view = render(createElement(TrustDialog, { pending: trust.pending(), onAnswer: () => undefined, armMs: 0 }));
    expect(view.lastFrame()).toContain('.claude/skills/explain/SKILL.md: skills skill explain runs !`git status --short`');
    removeTempDirs();
  });

  test('a 1 or Enter typed before it opens does not trust the project', async () => {
    const answers: boolean[] = [];
    const view = render(createElement(TrustDialog, { pending, onAnswer: (t: boolean) => answers.push(t), armMs: TEST_ARM_MS }));
    view.stdin.write('1');
    view.stdin.write(KEYS.enter);
    await settle();
    expect(answers).toEqual([]);
    await new Promise((r) => setTimeout(r, TEST_ARM_MS + 50));
    view.stdin.write(KEYS.enter);
    await until(() => answers.length > 0);
    expect(answers).toEqual([true]);
  });
});

describe('input', () => {
  const commands = () => [
    { name: 'help', description: 'List the commands' },
    { name: 'hooks', description: 'Show hook rules' },
    { name: 'resume', description: 'Resume a session', argumentHint: '[id]' },
  ];

  function open(history: string[] = []) {
    const sent: string[] = [];
    const view = render(createElement(InputBox, { commands, history, active: true, onSubmit: (t: string) => (sent.push(t), true) }));
    return { ...view, sent };
  }

  test('typing and Enter sends; text and Enter in one chunk too; an empty line is not sent', async () => {
    const { stdin, sent } = open();
    stdin.write(KEYS.enter);
    stdin.write('hello');
    stdin.write(KEYS.enter);
    stdin.write('fast typist\r');
    await until(() => sent.length === 2);
    expect(sent).toEqual(['hello', 'fast typist']);
  });

  test('a pasted block keeps its lines; `\\` then Enter adds a line; backspace edits', async () => {
    const { stdin, sent, lastFrame } = open();
    stdin.write('line one\r\nline two\r\n');
    stdin.write('end\\');
    stdin.write(KEYS.enter);
    stdin.write('more!');
    stdin.write(KEYS.backspace);
    await until(() => lastFrame()!.includes('4 lines'), () => lastFrame()!);
    stdin.write(KEYS.enter);
    await until(() => sent.length === 1);
    expect(sent).toEqual(['line one\nline two\nend\nmore']);
  });

  test('/ lists the commands; typing narrows; Tab completes; Enter on a prefix runs the highlighted one', async () => {
    const { stdin, sent, lastFrame } = open();
    stdin.write('/');
    await until(() => lastFrame()!.includes('/resume [id]'), () => lastFrame()!);
    expect(lastFrame()).toContain('/help');
    stdin.write('h');
    await until(() => !lastFrame()!.includes('/resume'), () => lastFrame()!);
    expect(lastFrame()).toContain('/hooks');
    stdin.write(KEYS.down);
    stdin.write('\t');
    // Completed with a space after the name: the menu closes.
    await until(() => lastFrame()!.includes('> /hooks') && !lastFrame()!.includes('Show hook rules'), () => lastFrame()!);
    stdin.write(KEYS.enter);
    stdin.write('/re');
    stdin.write(KEYS.enter);
    await until(() => sent.length === 2);
    expect(sent).toEqual(['/hooks', '/resume']);
  });

  test('↑ and ↓ walk the history', async () => {
    const { stdin, lastFrame } = open(['first', 'second']);
    stdin.write(KEYS.up);
    await until(() => lastFrame()!.includes('second'), () => lastFrame()!);
    stdin.write(KEYS.up);
    await until(() => lastFrame()!.includes('first'), () => lastFrame()!);
    stdin.write(KEYS.down);
    await until(() => lastFrame()!.includes('second'), () => lastFrame()!);
  });
});

test('the picker searches, moves and picks; Esc cancels', async () => {
  const picked: (string | undefined)[] = [];
  const items = [
    { label: 'fix the login bug', value: 'a' },
    { label: 'write the docs', value: 'b' },
    { label: 'docs: typos', value: 'c' },
  ];
  const view = render(createElement(PickerView, { picker: { title: 'Resume a session', items, resolve: (v: string | undefined) => picked.push(v) } }));
  view.stdin.write('docs');
  await until(() => !view.lastFrame()!.includes('login'), () => view.lastFrame()!);
  view.stdin.write(KEYS.down);
  view.stdin.write(KEYS.enter);
  await until(() => picked.length === 1);
  const other = render(createElement(PickerView, { picker: { title: 't', items, resolve: (v: string | undefined) => picked.push(v) } }));
  other.stdin.write(KEYS.escape);
  await until(() => picked.length === 2);
  expect(picked).toEqual(['c', undefined]);
});

test('the status line: provider, model, mode, sandbox, context % of the window, session tokens', () => {
  const status = { provider: 'anthropic', model: 'claude-x', mode: 'acceptEdits' as const, sandbox: 'bubblewrap', contextWindow: 200_000, contextTokens: 50_000, sessionTokens: 123_456 };
  const { lastFrame } = render(createElement(StatusLine, { status, hint: undefined }));
  expect(lastFrame()).toBe('anthropic/claude-x · mode: acceptEdits · sandbox: bubblewrap · context 25% of 200k · 123.5k tokens');
});

test('a long input shows only the lines around the cursor', () => {
  const value = Array.from({ length: 50 }, (_, i) => `l${i}`).join('\n');
  const end = visibleWindow({ value, cursor: value.length }, INPUT_ROWS);
  expect(end.value.split('\n')).toEqual(['l42', 'l43', 'l44', 'l45', 'l46', 'l47', 'l48', 'l49']);
  expect(end.value.slice(end.cursor - 3, end.cursor)).toBe('l49');
  const start = visibleWindow({ value, cursor: 1 }, INPUT_ROWS);
  expect(start.value.split('\n')[0]).toBe('l0');
  expect(start.cursor).toBe(1);
  const short = { value: 'a\nb', cursor: 2 };
  expect(visibleWindow(short, INPUT_ROWS)).toBe(short);
});
