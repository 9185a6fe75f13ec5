/**
 * ui-acp/editor-io.ts over a real SDK connection pair (agent and client ends joined by two
 * in-memory streams, newline-delimited JSON as on stdio): the plugin binds only what the client
 * advertised; read_file / edit_file go through fs/*; bash goes through terminal/* with the wrapped
 * command, a clean environment, the output limit, a kill on cancellation and always a release.
 */
import * as acp from '@agentclientprotocol/sdk';
import { Container } from 'inversify';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { BashTool } from '../../../plugins/tool-bash/bash-tool.js';
import { EditFileTool } from '../../../plugins/tool-edit-file/edit-file-tool.js';
import { ReadFileTool } from '../../../plugins/tool-read-file/read-file-tool.js';
import { WriteFileTool } from '../../../plugins/tool-write-file/write-file-tool.js';
import { CLEAN_ENVIRONMENT, TERMINAL_OUTPUT_MAX_BYTES, editorIoPlugin, type EditorIoOptions } from '../../../plugins/ui-acp/editor-io.js';
import type { ClientCapabilities } from '@agentclientprotocol/sdk';
import { TOKENS } from '../../../types/tokens.js';
import type { CommandLauncher, WorkspaceFiles } from '../../../types/workspace-io.js';
import { methodsOf, testEditor, type TestEditorState } from '../../support/acp-test-editor.js';
import { toolContext } from '../../support/tool-context.js';

const SESSION = 'sess-1';

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
let root: string;
let connections: acp.AcpConnection[] = [];

beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-editor-io-')));
});
afterEach(async () => {
  for (const connection of connections.splice(0)) connection.close();
  await rm(root, { recursive: true, force: true });
});

/** The agent's view of a connected test editor. */
function connect(state: Partial<TestEditorState> = {}): { client: acp.AgentContext; editor: TestEditorState } {
  const { app, state: editor } = testEditor(state);
  return { client: connectApp(app), editor };
}

/** Joins a client app and a fresh agent end with two in-memory newline-delimited JSON streams. */
function connectApp(app: acp.ClientApp): acp.AgentContext {
  const toClient = new TransformStream<Uint8Array, Uint8Array>();
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  connections.push(app.connect(acp.ndJsonStream(toAgent.writable, toClient.readable)));
  const agent = acp.agent({ name: 'mewcode-test' }).connect(acp.ndJsonStream(toClient.writable, toAgent.readable));
  connections.push(agent);
  return agent.client;
}

async function services(options: EditorIoOptions): Promise<{ files?: WorkspaceFiles; launcher?: CommandLauncher }> {
  const plugin = editorIoPlugin(options);
  if (!plugin) return {};
  const container = new Container();
  await container.loadAsync(plugin.bindings as never);
  return {
    ...(container.isBound(TOKENS.WorkspaceFiles) ? { files: container.get<WorkspaceFiles>(TOKENS.WorkspaceFiles) } : {}),
    ...(container.isBound(TOKENS.CommandLauncher) ? { launcher: container.get<CommandLauncher>(TOKENS.CommandLauncher) } : {}),
  };
}

const ALL: ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

test('only what the client advertised is bound; nothing advertised, no plugin', async () => {
  const { client } = connect();
  expect(editorIoPlugin({ client, sessionId: SESSION, capabilities: undefined })).toBeUndefined();
  expect(editorIoPlugin({ client, sessionId: SESSION, capabilities: { fs: { readTextFile: false }, terminal: false } })).toBeUndefined();
  const readOnly = await services({ client, sessionId: SESSION, capabilities: { fs: { readTextFile: true } } });
  expect(typeof readOnly.files?.readText).toBe('function');
  expect(readOnly.files?.writeText).toBeUndefined();
  expect(readOnly.launcher).toBeUndefined();
  const terminalsOnly = await services({ client, sessionId: SESSION, capabilities: { terminal: true } });
  expect(terminalsOnly.files).toBeUndefined();
  expect(terminalsOnly.launcher).toBeDefined();
});

test('read_file and edit_file see and change the editor buffer through fs/*; the disk is untouched', async () => {
  const { client, editor } = connect();
  const { files } = await services({ client, sessionId: SESSION, capabilities: ALL });
  const file = path.join(root, 'a.ts');
  await writeFile(file, 'const saved = 1;\n');
  editor.buffers.set(file, 'const saved = 1;\nconst unsaved = 2;\n');
  const limits = createOutputLimits(path.join(root, '.spill'));
  const reads = new FileReadTrackerImpl();
  const context = toolContext({ projectRoot: root });
  const read = await new ReadFileTool(limits, reads, { workspaceFiles: () => files }).execute({ file_path: 'a.ts' }, context);
  expect(read.content).toBe('     1\tconst saved = 1;\n     2\tconst unsaved = 2;');
  const edited = await new EditFileTool(limits, reads, { workspaceFiles: () => files }).execute({ file_path: 'a.ts', old_string: 'unsaved = 2', new_string: 'edited = 3' }, context);
  expect(edited.isError).toBeUndefined();
  expect(editor.buffers.get(file)).toBe('const saved = 1;\nconst edited = 3;\n');
  expect(await readFile(file, 'utf8')).toBe('const saved = 1;\n');
  expect(editor.calls).toEqual([
    ['fs/read_text_file', { sessionId: SESSION, path: file }],
    ['fs/read_text_file', { sessionId: SESSION, path: file }],
    ['fs/write_text_file', { sessionId: SESSION, path: file, content: 'const saved = 1;\nconst edited = 3;\n' }],
  ]);
});

test('read_file with offset / limit asks fs/read_text_file for those lines (line, limit), with the result read_file gives on disk', async () => {
  const { client, editor } = connect();
  const { files } = await services({ client, sessionId: SESSION, capabilities: ALL });
  const file = path.join(root, 'n.txt');
  await writeFile(file, Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  const limits = createOutputLimits(path.join(root, '.spill'));
  const context = toolContext({ projectRoot: root });
  const viaEditor = await new ReadFileTool(limits, new FileReadTrackerImpl(), { workspaceFiles: () => files }).execute({ file_path: 'n.txt', offset: 10, limit: 5 }, context);
  expect(editor.calls).toEqual([['fs/read_text_file', { sessionId: SESSION, path: file, line: 10, limit: 6 }]]);
  const onDisk = await new ReadFileTool(limits, new FileReadTrackerImpl()).execute({ file_path: 'n.txt', offset: 10, limit: 5 }, context);
  expect(viaEditor).toEqual(onDisk);
  expect(viaEditor.content).toMatch(/^ {4}10\tline 10\n/);
});

test('a session cwd reached through a symbolic link: fs/* name the files under the editor\'s cwd, so its buffers (unsaved edits) are found', async () => {
  const real = path.join(root, 'proj');
  await mkdir(real);
  const ws = path.join(root, 'ws');
  await symlink(real, ws);
  await writeFile(path.join(real, 'a.ts'), 'const saved = 1;\n');
  const { client, editor } = connect();
  // The editor keys its buffers by its own workspace path.
  editor.buffers.set(path.join(ws, 'a.ts'), 'const saved = 1;\nconst unsaved = 2;\n');
  const { files } = await services({ client, sessionId: SESSION, capabilities: ALL, cwd: ws });
  const limits = createOutputLimits(path.join(root, '.spill'));
  const reads = new FileReadTrackerImpl();
  const context = toolContext({ projectRoot: ws });
  const read = await new ReadFileTool(limits, reads, { workspaceFiles: () => files }).execute({ file_path: 'a.ts' }, context);
  expect(read.content).toContain('const unsaved = 2;');
  const edited = await new EditFileTool(limits, reads, { workspaceFiles: () => files }).execute({ file_path: 'a.ts', old_string: 'unsaved = 2', new_string: 'edited = 3' }, context);
  expect(edited.isError).toBeUndefined();
  const written = await new WriteFileTool(reads, { workspaceFiles: () => files }).execute({ file_path: 'sub-new.ts', content: 'new\n' }, context);
  expect(written.isError).toBeUndefined();
  expect(editor.calls.map(([method, params]) => [method, params.path])).toEqual([
    ['fs/read_text_file', path.join(ws, 'a.ts')],
    ['fs/read_text_file', path.join(ws, 'a.ts')],
    ['fs/write_text_file', path.join(ws, 'a.ts')],
    ['fs/write_text_file', path.join(ws, 'sub-new.ts')],
  ]);
  expect(editor.buffers.get(path.join(ws, 'a.ts'))).toBe('const saved = 1;\nconst edited = 3;\n');
  // The disk itself is never written by an editor write; nothing was found at the real path's name either.
  expect(editor.buffers.has(path.join(real, 'a.ts'))).toBe(false);
});

test('bash runs in an editor terminal: the wrapped argv, only the allowlisted environment, the output limit, then release', async () => {
  const { client, editor } = connect({ terminalBaseEnv: { ...process.env, EDITOR_SECRET: 'from-the-editor' } });
  const shown: Array<[string, string]> = [];
  const { launcher } = await services({ client, sessionId: SESSION, capabilities: ALL, onTerminal: (call, terminal) => void shown.push([call, terminal]) });
  const bash = new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher, sourceEnv: () => ({ PATH: process.env.PATH, HOME: '/home/u', AGENT_SECRET: 'k' }) });
  const context = toolContext({ projectRoot: root, toolCallId: 'call-7' });
  const result = await bash.execute({ command: 'echo "[${EDITOR_SECRET-unset}] [${AGENT_SECRET-unset}] $HOME"; exit 2' }, context);
  expect(result).toEqual({ content: 'exit_code: 2\n[unset] [unset] /home/u', isError: false, exitCode: 2 });

  const [method, create] = editor.calls[0] as [string, Record<string, unknown>];
  expect(method).toBe('terminal/create');
  const args = create.args as string[];
  expect(args.slice(0, 3)).toEqual(['-c', CLEAN_ENVIRONMENT, 'mewcode-env']);
  expect(create.command).toBe('/bin/sh');
  expect(args[3]).toMatch(/\/(ba)?sh$/);
  expect(args.slice(4)).toEqual(['-c', 'echo "[${EDITOR_SECRET-unset}] [${AGENT_SECRET-unset}] $HOME"; exit 2']);
  expect(create).toMatchObject({ sessionId: SESSION, cwd: root, outputByteLimit: TERMINAL_OUTPUT_MAX_BYTES });
  expect((create.env as Array<{ name: string }>).map((v) => v.name).sort()).toEqual(['CLAUDE_PROJECT_DIR', 'HOME', 'MEWCODE_ENV_NAMES', 'MEWCODE_PROJECT_DIR', 'PATH']);
  expect(methodsOf(editor)).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
  expect(shown).toEqual([['call-7', 'term-1']]);

  // Input is /dev/null, as for a local run: a command that reads does not wait on the terminal.
  expect(await bash.execute({ command: 'read line; echo "read: [$line] $?"', timeout: 5_000 }, context)).toEqual({ content: 'exit_code: 0\nread: [] 1', isError: false, exitCode: 0 });
});

test("the environment step keeps an allowlisted variable named like its own loop's (name)", () => {
  const result = spawnSync('/bin/sh', ['-c', CLEAN_ENVIRONMENT, 'mewcode-env', '/bin/sh', '-c', 'printf "%s|%s" "$name" "${OTHER-unset}"'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', MEWCODE_ENV_NAMES: 'name PATH', name: 'mine', OTHER: 'dropped' },
  });
  expect({ status: result.status, stdout: result.stdout }).toEqual({ status: 0, stdout: 'mine|unset' });
});

test('with no bash on the command PATH the command runs under /bin/sh in the editor terminal too, its allowlisted variables kept', async () => {
  const { client } = connect();
  const { launcher } = await services({ client, sessionId: SESSION, capabilities: ALL });
  const bash = new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher, sourceEnv: () => ({ PATH: '/nonexistent', HOME: '/home/u v' }) });
  const result = await bash.execute({ command: 'echo "[$HOME] [$PATH]"' }, toolContext({ projectRoot: root }));
  expect(result).toEqual({ content: 'exit_code: 0\n[/home/u v] [/nonexistent]', isError: false, exitCode: 0 });
});

test('a cancelled command is killed in the editor, then its terminal released; a refused terminal is an error result', async () => {
  const { client, editor } = connect();
  const { launcher } = await services({ client, sessionId: SESSION, capabilities: ALL });
  const bash = new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher });
  const controller = new AbortController();
  const running = bash.execute({ command: 'echo begun; sleep 10' }, toolContext({ projectRoot: root, signal: controller.signal }));
  await until(() => editor.printed.includes('begun')); // cancelled once it runs, however slow the machine
  controller.abort();
  const cancelled = await running;
  expect(cancelled.isError).toBe(true);
  expect(cancelled.content).toMatch(/^Error: the command was cancelled after \d+ ms and stopped \(the editor's terminal was killed\).*\nbegun$/s);
  expect(methodsOf(editor)).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/output', 'terminal/release']);

  // An editor that advertised terminals but answers terminal/create with an error.
  const refusing = connectApp(acp.client({ name: 'refusing-editor' }));
  const { launcher: gone } = await services({ client: refusing, sessionId: SESSION, capabilities: ALL });
  const failed = await new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => gone }).execute({ command: 'echo hi' }, toolContext({ projectRoot: root }));
  expect(failed.isError).toBe(true);
  expect(failed.content).toMatch(/^Error: could not start the command: the editor could not open a terminal for it/);
});

test('with the sandbox on, the editor is given the sandbox-wrapped command, never the bare one', async () => {
  const { client, editor } = connect();
  const { launcher } = await services({ client, sessionId: SESSION, capabilities: ALL });
  const sandbox = {
    status: () => ({ active: true, mechanism: 'bubblewrap' as const }),
    probe: async () => ({ active: true, mechanism: 'bubblewrap' as const }),
    wrap: async (command: { argv: readonly string[] }) => ({
      kind: 'sandboxed' as const,
      mechanism: 'bubblewrap' as const,
      launch: { file: '/usr/bin/env', args: ['IN_SANDBOX=1', ...command.argv], env: { PROXY_PORT: '9' }, release: async () => undefined },
    }),
  };
  const bash = new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher, sandbox: () => sandbox });
  const result = await bash.execute({ command: 'echo $IN_SANDBOX $PROXY_PORT' }, toolContext({ projectRoot: root }));
  expect(result).toEqual({ content: 'exit_code: 0\n1 9', isError: false, exitCode: 0 });
  const create = editor.calls[0]?.[1] as { args: string[]; env: Array<{ name: string }> };
  expect(create.args.slice(3, 5)).toEqual(['/usr/bin/env', 'IN_SANDBOX=1']);
  expect(create.env.map((v) => v.name)).toContain('PROXY_PORT');
});

test('a timeout kills the command in the editor and keeps its output; a cancel during terminal/create still kills and releases', async () => {
  const { client, editor } = connect({ terminalCreateDelayMs: 300 });
  const { launcher } = await services({ client, sessionId: SESSION, capabilities: ALL });
  const bash = new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher });
  // Long enough for a loaded machine to start the command and print before the time-out.
  const timedOut = await bash.execute({ command: 'echo started; sleep 10', timeout: 3_000 }, toolContext({ projectRoot: root }));
  expect(timedOut.isError).toBe(true);
  expect(timedOut.content).toMatch(/^Error: the command timed out after 3000 ms and was stopped \(the editor's terminal was killed\).*\nstarted\n/s);
  expect(methodsOf(editor)).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/output', 'terminal/release']);

  editor.calls.length = 0;
  const controller = new AbortController();
  const running = bash.execute({ command: 'sleep 10' }, toolContext({ projectRoot: root, signal: controller.signal }));
  setTimeout(() => controller.abort(), 100); // while terminal/create is still being answered
  const cancelled = await running;
  expect(cancelled.isError).toBe(true);
  expect(cancelled.content).toMatch(/^Error: the command was cancelled/);
  expect(methodsOf(editor)).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/kill', 'terminal/output', 'terminal/release']);
});

test('a terminal/create answer without a terminalId is a failed start: no terminal shown, waited for or released with no id', async () => {
  const calls: [string, unknown][] = [];
  const shown: string[] = [];
  for (const answer of [{}, { terminalId: null }, { terminalId: '' }, { terminalId: 7 }]) {
    const app = acp
      .client({ name: 'malformed-editor' })
      .onRequest('terminal/create', ({ params }) => {
        calls.push(['terminal/create', params]);
        return answer as never;
      })
      .onRequest('terminal/wait_for_exit', ({ params }) => {
        calls.push(['terminal/wait_for_exit', params]);
        return {};
      })
      .onRequest('terminal/release', ({ params }) => {
        calls.push(['terminal/release', params]);
        return {};
      })
      .onRequest('terminal/output', ({ params }) => {
        calls.push(['terminal/output', params]);
        return { output: '', truncated: false };
      })
      .onRequest('terminal/kill', ({ params }) => {
        calls.push(['terminal/kill', params]);
        return {};
      });
    const client = connectApp(app);
    const { launcher } = await services({ client, sessionId: SESSION, capabilities: ALL, onTerminal: (_call, id) => shown.push(id) });
    const failed = await new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher }).execute({ command: 'echo hi' }, toolContext({ projectRoot: root }));
    expect(failed.isError).toBe(true);
    expect(failed.content).toMatch(/^Error: could not start the command: the editor answered terminal\/create without a terminalId/);
  }
  expect(calls.map(([method]) => method)).toEqual(['terminal/create', 'terminal/create', 'terminal/create', 'terminal/create']);
  expect(shown).toEqual([]);
});

/** An editor whose terminal answers are the test's (the command itself is never run). */
function faultyEditor(answers: { wait: () => unknown; output: () => unknown }): { client: acp.AgentContext; calls: string[] } {
  const calls: string[] = [];
  const app = acp
    .client({ name: 'faulty-editor' })
    .onRequest('terminal/create', () => {
      calls.push('terminal/create');
      return { terminalId: 'term-1' };
    })
    .onRequest('terminal/wait_for_exit', () => {
      calls.push('terminal/wait_for_exit');
      return answers.wait() as never;
    })
    .onRequest('terminal/output', () => {
      calls.push('terminal/output');
      return answers.output() as never;
    })
    .onRequest('terminal/kill', () => {
      calls.push('terminal/kill');
      return {};
    })
    .onRequest('terminal/release', () => {
      calls.push('terminal/release');
      return {};
    });
  return { client: connectApp(app), calls };
}

async function runIn(editor: { client: acp.AgentContext }): Promise<{ content: string; isError?: boolean }> {
  const { launcher } = await services({ client: editor.client, sessionId: SESSION, capabilities: ALL });
  return new BashTool(createOutputLimits(path.join(root, '.spill')), { launcher: () => launcher }).execute({ command: 'echo out; exit 3' }, toolContext({ projectRoot: root }));
}

const fails = (message: string) => (): never => {
  throw acp.RequestError.internalError(undefined, message);
};

test.each([
  ['fails', fails('output went away'), /the editor did not return the command's output: .*output went away/],
  ['answers a number', () => ({ output: 12345, truncated: false }), /the editor did not return the command's output: .*output/],
  ['answers no output field', () => ({ truncated: false }), /the editor did not return the command's output/],
  ['answers a non-boolean truncated', () => ({ output: 'out\n', truncated: 'yes' }), /the editor did not return the command's output/],
])("terminal/output that %s is never reported as the command printing nothing", async (_what, output, said) => {
  const editor = faultyEditor({ wait: () => ({ exitCode: 3, signal: null }), output });
  const result = await runIn(editor);
  expect(result.content).not.toContain('(no output)');
  expect(result.content).toMatch(said);
  expect(result.content).toContain('exit_code: 3');
  expect(result.isError).toBe(true);
  expect(editor.calls.at(-1)).toBe('terminal/release');
});

test.each([
  ['a string', { exitCode: 'zero', signal: null }],
  ['a fraction', { exitCode: 0.5, signal: null }],
  ['a boolean', { exitCode: true }],
  ['an object signal', { exitCode: null, signal: { name: 'SIGKILL' } }],
])('an exit status from the editor that is %s is shown as unknown, never as the editor wrote it', async (_what, exit) => {
  const editor = faultyEditor({ wait: () => exit, output: () => ({ output: 'out\n', truncated: false }) });
  const result = await runIn(editor);
  expect(result.content).toMatch(/exit_code: unknown/);
  expect(result.content).not.toMatch(/zero|0\.5|true|\[object/);
  expect(result.content).toContain('out');
});

test('terminal/wait_for_exit that fails: the command ran, its end could not be read (not "could not start"); the output is still read, the terminal released', async () => {
  const editor = faultyEditor({ wait: fails('wait went away'), output: () => ({ output: 'out\n', truncated: false }) });
  const result = await runIn(editor);
  expect(result.isError).toBe(true);
  expect(result.content).not.toMatch(/could not start/);
  expect(result.content).toMatch(/the command ran in the editor's terminal, but its end could not be read: .*wait went away/);
  expect(result.content).toContain('exit_code: unknown');
  expect(result.content).toContain('out');
  expect(editor.calls).toContain('terminal/output');
  expect(editor.calls.at(-1)).toBe('terminal/release');
});
