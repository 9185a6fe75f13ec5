// The whole terminal UI (App + controller + store) on a real kernel with the in-memory model:
// streaming, concurrent tools, approvals, cancellation, mode switching and commands.
import { ARM_MS } from '../../../plugins/ui-tui/app/dialogs.js';
import { ContainerModule } from 'inversify';
import { render } from 'ink-testing-library';
import { createElement } from 'react';
import type { Command } from '../../../types/commands.js';
import { definePlugin } from '../../../types/plugin.js';
import type { CompactionService } from '../../../types/session.js';
import { TOKENS } from '../../../types/tokens.js';
import commands from '../../../plugins/commands/index.js';
import { App } from '../../../plugins/ui-tui/app/app.js';
import { initialStatus } from '../../../plugins/ui-tui/app/start.js';
import { TuiController } from '../../../plugins/ui-tui/model/controller.js';
import { UiStore } from '../../../plugins/ui-tui/model/ui-store.js';
import { TuiOutput } from '../../../plugins/ui-tui/tui-output.js';
import { TuiUserInterface } from '../../../plugins/ui-tui/tui-ui.js';
import type { CliOptions, MewcodePlugin } from '../../../types/plugin.js';
import permissionRules from '../../../plugins/permission-rules/index.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootKernel } from '../../support/boot.js';
import { call, say, useTools, type Step } from '../../support/memory-provider.js';
import { sleepTool, toolsPlugin, writeTool, type ToolLog } from '../../support/test-tools.js';
import { KEYS, settle, until } from './helpers.js';

const cli: CliOptions = { outputFormat: 'text', permissionMode: 'default', permissionModeGiven: false, debugBoot: false, cwd: '/tmp/project', allowedTools: [], disallowedTools: [] };

const skillsCommand: Command = { name: 'skills', description: 'List the skills', run: async () => ({ output: 'skill-a, skill-b' }) };
const commandPlugin = definePlugin({ name: 'test-commands', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Command).toConstantValue(skillsCommand)) });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  removeTempDirs();
});

async function start(steps: Step[], extra: MewcodePlugin[] = []) {
  const log: ToolLog = { events: [] };
  const dirs = { projectRoot: temp('mewcode-tui-root-'), homeDir: temp('mewcode-tui-home-') };
  const { kernel, model } = await bootKernel(steps, [toolsPlugin([sleepTool(log), writeTool(log)]), commands, commandPlugin, ...extra], dirs);
  cleanups.push(() => kernel.shutdown());
  // The screen's output, as TuiUserInterface.run() attaches it (the UI hands plugins notify and approve only).
  const output = new TuiOutput();
  kernel.activateUi({ name: 'tui', handles: () => true, run: async () => 0, output });
  // The kernel itself, as bin/main.ts hands it to the UI's run() (the front end resumes the main session).
  const api = kernel;
  const store = new UiStore(initialStatus(api, cli));
  output.attach(store);
  const controller = new TuiController(api, store);
  const view = render(createElement(App, { controller }));
  cleanups.push(() => {
    controller.cancel();
    view.unmount();
  });
  const frame = (): string => view.lastFrame() ?? '';
  const waitFor = (text: string | RegExp) => until(() => (typeof text === 'string' ? frame().includes(text) : text.test(frame())), frame);
  const idle = () => until(() => !store.snapshot.busy, frame);
  const send = async (line: string) => {
    await idle();
    view.stdin.write(line);
    await settle(20);
    view.stdin.write(KEYS.enter);
  };
  return { kernel, model, view, store, controller, frame, waitFor, send, idle, log };
}

/** A dialog ignores choosing keys for ARM_MS after it opens (type-ahead guard). */
const armed = () => new Promise((r) => setTimeout(r, ARM_MS + 50));

test('a prompt streams its answer; concurrent read-only calls are on screen together, then each is ✓ with its time', async () => {
  const ui = await start([useTools([call('sleep_read', { ms: 400, text: 'a' }), call('sleep_read', { ms: 400, text: 'b' })], 'Reading both.'), say('Both **read**.')]);
  await ui.send('read a and b');
  await until(() => (ui.frame().match(/sleep_read running/g) ?? []).length === 2, ui.frame);
  expect(ui.frame()).toContain('> read a and b');
  expect(ui.frame()).toContain('Reading both.');
  await ui.waitFor('Both read.');
  expect(ui.frame().match(/✓ sleep_read \d+ms/g)).toHaveLength(2);
  expect(ui.log.events.slice(0, 2).sort()).toEqual(['start:a', 'start:b']);
  await ui.idle();
  expect(ui.frame()).toMatch(/context \d+% of 1\d+k · 30 tokens/);
});

test('approval: 1 allows the write; Esc denies the next one and the model reads "User denied"', async () => {
  const ui = await start([useTools([call('write_note', { text: 'one.txt' })]), say('first done'), useTools([call('write_note', { text: 'two.txt' })]), say('second refused')]);
  await ui.send('write one');
  await ui.waitFor('Allow write_note?');
  expect(ui.frame()).toMatch(/target\s+one\.txt/);
  // The dialog has the keyboard: Shift+Tab does not change the mode while it is open.
  ui.view.stdin.write(KEYS.shiftTab);
  await settle();
  expect(ui.store.snapshot.status.mode).toBe('default');
  await armed();
  ui.view.stdin.write('1');
  await ui.waitFor('first done');
  expect(ui.frame()).toContain('✓ write_note');
  await ui.send('write two');
  await ui.waitFor('Allow write_note?');
  ui.view.stdin.write(KEYS.escape);
  await ui.waitFor('second refused');
  expect(ui.frame()).toMatch(/✗ write_note[\s\S]*User denied/);
  expect(ui.log.events).toEqual(['write:one.txt']);
});

test('Ctrl+C cancels a running call; a second Ctrl+C right after a new run does not exit, two when idle do', async () => {
  const ui = await start([useTools([call('sleep_read', { ms: 10_000, text: 'slow' })]), say('after')]);
  let exitCode: number | undefined;
  ui.controller.exit = (code) => void (exitCode = code);
  await ui.send('be slow');
  await ui.waitFor('sleep_read running');
  // Shift+Tab while a run is going: refused with a hint.
  ui.view.stdin.write(KEYS.shiftTab);
  await ui.waitFor('The mode changes between runs');
  expect(ui.store.snapshot.status.mode).toBe('default');
  ui.view.stdin.write(KEYS.ctrlC);
  await ui.waitFor('Cancelled.');
  expect(ui.frame()).toMatch(/✗ sleep_read/);
  await ui.idle();
  await ui.send('again');
  await ui.waitFor('after');
  await ui.idle();
  ui.view.stdin.write(KEYS.ctrlC);
  await ui.waitFor('Press Ctrl+C again to exit');
  expect(exitCode).toBeUndefined();
  ui.view.stdin.write(KEYS.ctrlC);
  await until(() => exitCode !== undefined);
  expect(exitCode).toBe(0);
});

test('Esc and Ctrl+C stop a running command (/compact with a slow summary): "Interrupted.", the history unchanged, the UI free at once', async () => {
  // A summary that ends only when its request is aborted (or after 10 s), as a model request does.
  const service: CompactionService = {
    shouldCompact: () => false,
    compact: (_messages, { signal }) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve([{ role: 'user', content: [{ type: 'text', text: '(summary)' }] }]), 10_000);
        signal?.addEventListener('abort', () => (clearTimeout(timer), reject(new Error('the summary request was cancelled'))), { once: true });
      }),
  };
  const compaction = definePlugin({ name: 'test-slow-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  const ui = await start([say('first answer')], [compaction]);
  await ui.send('hello');
  await ui.waitFor('first answer');
  const before = structuredClone(ui.kernel.conversation.messages);
  for (const key of [KEYS.escape, KEYS.ctrlC]) {
    await ui.send('/compact');
    await until(() => ui.store.snapshot.busy, ui.frame);
    await settle(200);
    const t0 = Date.now();
    ui.view.stdin.write(key);
    await ui.idle();
    expect(Date.now() - t0).toBeLessThan(1_500);
    await ui.waitFor('Interrupted.');
    expect(ui.frame()).not.toMatch(/Compacted the conversation|Compaction failed/);
    expect(ui.kernel.conversation.messages).toEqual(before);
  }
});

test('Shift+Tab cycles default → acceptEdits → plan → default while idle; the mode reaches the run', async () => {
  const ui = await start([useTools([call('write_note', { text: 'auto.txt' })]), say('written')]);
  ui.view.stdin.write(KEYS.shiftTab);
  await ui.waitFor('mode: acceptEdits');
  ui.view.stdin.write(KEYS.shiftTab);
  await ui.waitFor('mode: plan');
  ui.view.stdin.write(KEYS.shiftTab);
  await ui.waitFor('mode: default');
  ui.view.stdin.write(KEYS.shiftTab);
  await ui.waitFor('mode: acceptEdits');
  await ui.send('write it');
  await ui.waitFor('written');
  expect(ui.frame()).not.toContain('Allow write_note?');
  expect(ui.log.events).toEqual(['write:auto.txt']);
});

test('contributed commands complete and run beside the UI’s own; /help lists both; an unknown one says so', async () => {
  const ui = await start([]);
  ui.view.stdin.write('/');
  await ui.waitFor('10 commands, ↑/↓ to see all');
  for (const name of ['/clear', '/model', '/mode', '/mcp', '/permissions', '/help', '/compact']) expect(ui.frame()).toContain(name);
  ui.view.stdin.write(KEYS.up); // wraps to the last one
  await ui.waitFor('› /skills  List the skills');
  ui.view.stdin.write(KEYS.enter);
  await ui.waitFor('skill-a, skill-b');
  await ui.send('/help');
  await ui.waitFor('Terminal UI commands:');
  expect(ui.frame()).toMatch(/\/skills\s+List the skills/);
  await ui.send('/mode plan');
  await ui.waitFor('mode: plan');
  await ui.send('/nope');
  await ui.waitFor('Unknown command /nope');
});

test('/model switches the session to a model typed after it', async () => {
  const ui = await start([]);
  await ui.send('/model other-model');
  await ui.waitFor('Model: memory other-model.');
  expect(ui.frame()).toContain('memory/other-model · mode: default');
});

test('/permissions lists a grant from "allow for this session" and revokes the one picked; the next call asks again', async () => {
  const ui = await start([useTools([call('write_note', { text: 'a.txt' })]), say('one'), useTools([call('write_note', { text: 'a.txt' })]), say('two')], [permissionRules]);
  await ui.send('/permissions');
  await ui.waitFor('No approvals granted');
  await ui.send('write a');
  await ui.waitFor('Allow write_note?');
  await armed();
  ui.view.stdin.write('2');
  await ui.waitFor('one');
  await ui.send('/permissions');
  await ui.waitFor('Granted approvals (Enter revokes, Esc keeps all)');
  expect(ui.frame()).toMatch(/› write_note\(.*a\.txt\)\s+this session/);
  ui.view.stdin.write(KEYS.enter);
  await ui.waitFor(/Revoked write_note\(/);
  await ui.send('write a again');
  await ui.waitFor('Allow write_note?');
  await armed();
  ui.view.stdin.write('1');
  await ui.waitFor('two');
});

test('/clear starts a new conversation: the next request holds only the new prompt', async () => {
  const ui = await start([say('first answer'), say('second answer')]);
  const before = ui.kernel.session.sessionId;
  await ui.send('remember kiwi');
  await ui.waitFor('first answer');
  await ui.send('/clear');
  await ui.waitFor(/New conversation \d{8}-\d{6}-[0-9a-f]{4}\./);
  expect(ui.kernel.session.sessionId).not.toBe(before);
  await ui.send('what did I say?');
  await ui.waitFor('second answer');
  expect(ui.model.requests[1]!.messages.map((m) => m.role)).toEqual(['user']);
  expect(ui.frame()).toContain('> remember kiwi'); // the scrollback keeps what was said
});

test('Esc interrupts a running call; a large paste is sent whole as one prompt', async () => {
  const ui = await start([useTools([call('sleep_read', { ms: 10_000, text: 'slow' })]), say('got it')]);
  await ui.send('be slow');
  await ui.waitFor('sleep_read running');
  ui.view.stdin.write(KEYS.escape);
  await ui.waitFor('Cancelled.');
  await ui.idle();
  const pasted = Array.from({ length: 300 }, (_, i) => `pasted line ${i} ${'x'.repeat(40)}`).join('\n');
  ui.view.stdin.write(pasted.replace(/\n/g, '\r\n'));
  await ui.waitFor('300 lines');
  ui.view.stdin.write(KEYS.enter);
  await ui.waitFor('got it');
  const last = ui.model.requests[1]!.messages.at(-1)!;
  expect(last.role === 'user' && last.content[0]!.type === 'text' && last.content[0]!.text).toBe(pasted);
});

test('/mcp lists the servers from TOKENS.McpServers; a plugin contributing its own /mcp takes over', async () => {
  const status = [
    { name: 'db', state: 'connected' as const, transport: 'stdio' as const, source: '.mewcode.yaml:3:5', toolCount: 2, undefinedVariables: [] },
    { name: 'web', state: 'failed' as const, transport: 'http' as const, source: '.mcp.json:2:3', toolCount: 0, undefinedVariables: [], lastError: 'connection refused' },
  ];
  const mcp = definePlugin({ name: 'fake-mcp', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.McpServers).toConstantValue({ status: () => status, settled: async () => undefined })) });
  const ui = await start([], [mcp]);
  await ui.send('/mcp');
  await ui.waitFor('web  failed (http) — connection refused');
  expect(ui.frame()).toContain('db  connected (stdio, 2 tools)');
  const own: Command = { name: 'mcp', description: 'the MCP plugin’s own', run: async () => ({ output: 'from the plugin' }) };
  const other = await start([], [definePlugin({ name: 'own-mcp', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.Command).toConstantValue(own)) })]);
  await other.send('/mcp');
  await other.waitFor('from the plugin');
  expect(other.controller.commands().filter((c) => c.name === 'mcp')).toEqual([{ name: 'mcp', description: 'the MCP plugin’s own' }]);
});

test('the UI a plugin can resolve offers notify and approve only: no plugin can put a screen of its own in front of the user', () => {
  const ui = new TuiUserInterface();
  expect(Object.keys(ui.output).sort()).toEqual(['approve', 'notify']);
  expect(Object.isFrozen(ui.output)).toBe(true);
  expect((ui.output as unknown as { attach?: unknown }).attach).toBeUndefined();
  expect(Object.keys(ui)).not.toContain('screen');
});
