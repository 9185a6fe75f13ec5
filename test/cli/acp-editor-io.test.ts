/**
 * `mewcode acp` (the BUILT binary) with an editor that owns the files and the terminals: the
 * SDK's client side, implementing fs/* and terminal/* as an editor does (test/support/
 * acp-test-editor.ts), against the scripted model. An edit applies to the editor's unsaved buffer
 * and is written back through fs/write_text_file with the disk untouched; a read returns the
 * buffer; bash runs in the editor's terminal as the sandbox wrapped it, with none of the editor's
 * environment; what the permission layers refuse never reaches the editor.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { sandboxActive } from '../security/sandbox-cli.js';
import { methodsOf, testEditor, type TestEditorState } from '../support/acp-test-editor.js';
import type { ScriptedTurn } from '../scripted-server/index.js';
import { prepareCli, removeTempDirs, scenario, tempDir, type Scenario } from './helpers.js';

afterAll(() => removeTempDirs());

const EVERYTHING: acp.ClientCapabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true };

interface Turn {
  updates: acp.SessionUpdate[];
  stopReason: acp.StopReason;
}

/**
 * Starts `mewcode acp` in the scenario's project, connects the test editor (advertising
 * `capabilities`), opens a session, sends one prompt and collects its updates.
 */
async function promptOnce(s: Scenario, capabilities: acp.ClientCapabilities, editorState: Partial<TestEditorState> = {}): Promise<{ turn: Turn; editor: TestEditorState; stderr: string }> {
  const bin = await prepareCli();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(s.env)) if (value !== undefined) env[key] = value;
  const child = spawn(process.execPath, [bin, 'acp'], { cwd: s.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const stream = acp.ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
  const { app, state } = testEditor(editorState);
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 25_000);
  try {
    const turn = await app.connectWith(stream, async (agent) => {
      await agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities });
      const session = await agent.buildSession(s.cwd).start();
      const answered = session.prompt('go');
      const updates: acp.SessionUpdate[] = [];
      for (;;) {
        const message = await session.nextUpdate();
        if (message.kind === 'stop') break;
        updates.push(message.update);
      }
      return { updates, stopReason: (await answered).stopReason };
    });
    return { turn, editor: state, stderr };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nmewcode acp stderr:\n${stderr}`);
  } finally {
    clearTimeout(watchdog);
    child.stdin.end();
    child.kill('SIGTERM');
    await closed;
  }
}

/** The text of every tool result the model was sent, in order. */
function toolResults(s: Scenario): string[] {
  const out: string[] = [];
  for (const request of s.requests) {
    const last = request.body.messages.at(-1);
    if (!Array.isArray(last?.content)) continue;
    for (const block of last.content) {
      if (block.type === 'tool_result') out.push(typeof block.content === 'string' ? block.content : block.content.map((c: { text?: string }) => c.text ?? '').join(''));
    }
  }
  return out;
}

const calls = (...specs: Array<{ name: string; input: Record<string, unknown> }>): ScriptedTurn[] => [...specs.map((spec, i) => ({ toolCalls: [{ id: `call_${i}`, ...spec }] })), { text: 'done' }];

test('a read returns the unsaved buffer; an edit applies to it and is written through fs/write_text_file, the disk untouched', async () => {
  const turns = calls({ name: 'read_file', input: { file_path: 'src/a.ts' } }, { name: 'edit_file', input: { file_path: 'src/a.ts', old_string: 'unsaved = 2', new_string: 'edited = 3' } });
  await scenario(turns, async (s) => {
    await mkdir(path.join(s.cwd, 'src'));
    const file = path.join(s.cwd, 'src', 'a.ts');
    await writeFile(file, 'const saved = 1;\n');
    const buffers = new Map([[file, 'const saved = 1;\nconst unsaved = 2;\n']]);
    const { turn, editor } = await promptOnce(s, EVERYTHING, { buffers });
    expect(turn.stopReason).toBe('end_turn');

    const [read, edited] = toolResults(s);
    expect(read).toBe('     1\tconst saved = 1;\n     2\tconst unsaved = 2;');
    expect(edited).toMatch(/^Edited src\/a\.ts: replaced 1 occurrence \(line 2\)\./);
    expect(editor.buffers.get(file)).toBe('const saved = 1;\nconst edited = 3;\n');
    expect(await readFile(file, 'utf8')).toBe('const saved = 1;\n');
    expect(editor.calls).toContainEqual(['fs/write_text_file', expect.objectContaining({ path: file, content: 'const saved = 1;\nconst edited = 3;\n' })]);

    // The editor is shown the whole change, from its own buffer's text.
    const diffs = turn.updates.flatMap((u) => (u.sessionUpdate === 'tool_call_update' || u.sessionUpdate === 'tool_call' ? (u.content ?? []) : [])).filter((c) => c.type === 'diff');
    expect(diffs.at(-1)).toEqual({ type: 'diff', path: file, oldText: 'const saved = 1;\nconst unsaved = 2;\n', newText: 'const saved = 1;\nconst edited = 3;\n' });
  });
}, 40_000);

test("an editor's answer over the size the agent reads (a huge buffer) fails that read with an error saying so; the turn ends, never answered back", async () => {
  const turns = calls({ name: 'read_file', input: { file_path: 'big.txt' } });
  await scenario(turns, async (s) => {
    const file = path.join(s.cwd, 'big.txt');
    await writeFile(file, 'small on disk\n');
    // Every line escaped in the JSON answer, as a real file's text is.
    const buffers = new Map([[file, `${'x'.repeat(99)}\n`.repeat(Math.ceil((acp.DEFAULT_MAX_MESSAGE_BYTES + 2 * 1024 * 1024) / 100))]]);
    const { turn, stderr } = await promptOnce(s, EVERYTHING, { buffers });
    expect(turn.stopReason).toBe('end_turn');
    const [read] = toolResults(s);
    expect(read).toMatch(/^Could not read big\.txt: the editor's answer was over 32 MiB/);
    expect(stderr).toContain("an answer to the agent's request");
  });
}, 60_000);

test("bash runs in the editor's terminal, as the OS sandbox wrapped it, with none of the editor's environment; the terminal is shown and released", async () => {
  const turns = calls({ name: 'bash', input: { command: 'echo "from the terminal [${EDITOR_SECRET-unset}]"; pwd' } });
  await scenario(turns, async (s) => {
    const sandbox = await sandboxActive(s.home);
    const { turn, editor } = await promptOnce(s, EVERYTHING, { terminalBaseEnv: { ...process.env, EDITOR_SECRET: 'editor-api-key' } });
    expect(turn.stopReason).toBe('end_turn');
    expect(toolResults(s)).toEqual([`exit_code: 0\nfrom the terminal [unset]\n${s.cwd}`]);

    const create = editor.calls.find(([method]) => method === 'terminal/create')?.[1] as { command: string; args: string[]; cwd: string; env: Array<{ name: string }> };
    expect(create.cwd).toBe(s.cwd);
    expect(create.args.slice(0, 1)).toEqual(['-c']);
    expect(create.args[2]).toBe('mewcode-env');
    const launched = create.args.slice(3);
    if (sandbox.active) {
      // bwrap (behind the small sh that hands it the seccomp filter), the bare shell command last
      expect(launched.slice(0, 8).some((arg) => path.basename(arg) === 'bwrap')).toBe(true);
      expect(launched).toContain('--unshare-pid');
      expect(launched.slice(-3)).toEqual([expect.stringMatching(/bash$/), '-c', 'echo "from the terminal [${EDITOR_SECRET-unset}]"; pwd']);
    } else {
      expect(launched).toEqual([expect.stringMatching(/bash$/), '-c', 'echo "from the terminal [${EDITOR_SECRET-unset}]"; pwd']);
    }
    expect(create.env.map((v) => v.name)).not.toContain('ANTHROPIC_API_KEY');
    expect(methodsOf(editor)).toEqual(['terminal/create', 'terminal/wait_for_exit', 'terminal/output', 'terminal/release']);
    const shown = turn.updates.some((u) => u.sessionUpdate === 'tool_call_update' && (u.content ?? []).some((c) => c.type === 'terminal'));
    expect(shown).toBe(true);
    // The ended call keeps its terminal (the editor goes on showing the released terminal's
    // output), with the result text after it.
    const ended = turn.updates.filter((u) => u.sessionUpdate === 'tool_call_update' && u.status === 'completed').at(-1) as acp.ToolCallUpdate;
    expect(ended.content?.[0]).toMatchObject({ type: 'terminal' });
    expect(ended.content?.[1]).toMatchObject({ type: 'content', content: { type: 'text', text: expect.stringContaining('from the terminal') } });
  });
}, 40_000);

test('what the permission layers refuse never reaches the editor: a write outside the project, an edit of an unread file', async () => {
  const outsideDir = tempDir('mewcode-acp-outside-');
  const outside = path.join(outsideDir, 'planted.ts');
  const turns = calls({ name: 'write_file', input: { file_path: outside, content: 'x' } }, { name: 'edit_file', input: { file_path: 'a.ts', old_string: 'a', new_string: 'b' } });
  await scenario(turns, async (s) => {
    const file = path.join(s.cwd, 'a.ts');
    await writeFile(file, 'a\n');
    const { turn, editor } = await promptOnce(s, EVERYTHING, { buffers: new Map([[file, 'a\n']]) });
    expect(turn.stopReason).toBe('end_turn');
    const [write, edit] = toolResults(s);
    expect(write).toMatch(/outside|denied|not allowed/i);
    expect(edit).toMatch(/read/i);
    // Nothing written, nothing asked about the outside file (the in-project file's buffer may be
    // read to show the proposed change).
    expect(methodsOf(editor).filter((method) => method !== 'fs/read_text_file')).toEqual([]);
    expect(editor.calls.filter(([, params]) => JSON.stringify(params).includes(outsideDir))).toEqual([]);
    expect(existsSync(outside)).toBe(false);
    expect(editor.buffers.get(file)).toBe('a\n');
  });
}, 40_000);

test('a client that advertises neither files nor terminals: MewCode reads, edits and runs commands itself', async () => {
  const turns = calls(
    { name: 'read_file', input: { file_path: 'a.ts' } },
    { name: 'edit_file', input: { file_path: 'a.ts', old_string: 'disk', new_string: 'edited' } },
    { name: 'bash', input: { command: 'cat a.ts' } },
  );
  await scenario(turns, async (s) => {
    const file = path.join(s.cwd, 'a.ts');
    await writeFile(file, 'disk\n');
    const { turn, editor } = await promptOnce(s, {}, { buffers: new Map([[file, 'a buffer the agent must not see\n']]) });
    expect(turn.stopReason).toBe('end_turn');
    expect(toolResults(s)).toEqual(['     1\tdisk', expect.stringMatching(/^Edited a\.ts/), 'exit_code: 0\nedited']);
    expect(methodsOf(editor)).toEqual([]);
    expect(await readFile(file, 'utf8')).toBe('edited\n');
  });
}, 40_000);
