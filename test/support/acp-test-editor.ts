/**
 * The editor side of the editor protocol for tests: a real ACP client app (the SDK's) that owns
 * files and terminals as an editor does — open buffers with unsaved text over the disk, and
 * terminals that run a command with the editor's own environment plus what the agent asked for,
 * keep at most `outputByteLimit` bytes (dropping the oldest) and are killed on release.
 */
import * as acp from '@agentclientprotocol/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

interface Terminal {
  child: ChildProcess;
  output: Buffer;
  truncated: boolean;
  limit: number;
  exit: Promise<{ exitCode: number | null; signal: string | null }>;
  exitStatus?: { exitCode: number | null; signal: string | null };
}

export interface TestEditorState {
  /** Unsaved buffers by absolute path; reads fall back to the disk. */
  buffers: Map<string, string>;
  /** Every fs/*, terminal/* and permission request, in order: `[method, params]`. */
  calls: Array<[string, Record<string, unknown>]>;
  /** The environment the editor's terminals start from (an editor's holds its own secrets). */
  terminalBaseEnv: NodeJS.ProcessEnv;
  /** How long terminal/create takes to answer (a slow editor). */
  terminalCreateDelayMs?: number;
  /** Everything any terminal printed so far (tests wait on it instead of on a clock). */
  printed: string;
}

export function testEditor(state: Partial<TestEditorState> = {}): { app: acp.ClientApp; state: TestEditorState } {
  const editor: TestEditorState = { ...state, buffers: state.buffers ?? new Map(), calls: state.calls ?? [], terminalBaseEnv: state.terminalBaseEnv ?? { ...process.env }, printed: '' };
  const terminals = new Map<string, Terminal>();
  let next = 0;
  const record = (method: string, params: unknown): void => void editor.calls.push([method, params as Record<string, unknown>]);
  const terminal = (id: string): Terminal => {
    const found = terminals.get(id);
    if (!found) throw acp.RequestError.invalidParams({ terminalId: id }, `no terminal ${id}`);
    return found;
  };

  const app = acp
    .client({ name: 'test-editor' })
    .onRequest('fs/read_text_file', async ({ params }) => {
      record('fs/read_text_file', params);
      const text = editor.buffers.get(params.path) ?? (await readFile(params.path, 'utf8'));
      if (params.line == null && params.limit == null) return { content: text };
      // As an editor answers `line` (1-based) / `limit`: those lines, each with its line end.
      const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
      const first = (params.line ?? 1) - 1;
      return { content: lines.slice(first, params.limit == null ? undefined : first + params.limit).join('') };
    })
    .onRequest('fs/write_text_file', ({ params }) => {
      record('fs/write_text_file', params);
      editor.buffers.set(params.path, params.content);
      return {};
    })
    .onRequest('terminal/create', async ({ params }) => {
      record('terminal/create', params);
      if (editor.terminalCreateDelayMs) await new Promise((resolve) => setTimeout(resolve, editor.terminalCreateDelayMs));
      const env = { ...editor.terminalBaseEnv };
      for (const { name, value } of params.env ?? []) env[name] = value;
      const child = spawn(params.command, params.args ?? [], { cwd: params.cwd ?? undefined, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true }); // input stays open, as a terminal's does
      const id = `term-${++next}`;
      const entry: Terminal = {
        child,
        output: Buffer.alloc(0),
        truncated: false,
        limit: params.outputByteLimit ?? Number.POSITIVE_INFINITY,
        exit: new Promise((resolve) => {
          child.once('error', () => resolve({ exitCode: 127, signal: null }));
          child.once('close', (exitCode, signal) => resolve({ exitCode, signal }));
        }),
      };
      void entry.exit.then((status) => (entry.exitStatus = status));
      const keep = (chunk: Buffer): void => {
        editor.printed += chunk.toString('utf8');
        entry.output = Buffer.concat([entry.output, chunk]);
        if (entry.output.length > entry.limit) {
          entry.output = entry.output.subarray(entry.output.length - entry.limit);
          entry.truncated = true;
        }
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      terminals.set(id, entry);
      return { terminalId: id };
    })
    .onRequest('terminal/wait_for_exit', async ({ params }) => {
      record('terminal/wait_for_exit', params);
      return await terminal(params.terminalId).exit;
    })
    .onRequest('terminal/output', ({ params }) => {
      record('terminal/output', params);
      const entry = terminal(params.terminalId);
      return { output: entry.output.toString('utf8'), truncated: entry.truncated, ...(entry.exitStatus ? { exitStatus: entry.exitStatus } : {}) };
    })
    .onRequest('terminal/kill', ({ params }) => {
      record('terminal/kill', params);
      killGroup(terminal(params.terminalId).child);
      return {};
    })
    .onRequest('session/request_permission', ({ params }) => {
      record('session/request_permission', params);
      // The user allows once: what a person would click for a call they expected.
      const option = params.options.find((o) => o.kind === 'allow_once');
      return { outcome: option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' } };
    })
    .onRequest('terminal/release', ({ params }) => {
      record('terminal/release', params);
      killGroup(terminal(params.terminalId).child);
      terminals.delete(params.terminalId);
      return {};
    });
  return { app, state: editor };
}

function killGroup(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The method names of the recorded calls. */
export function methodsOf(state: TestEditorState): string[] {
  return state.calls.map(([method]) => method).filter((method) => method !== 'session/request_permission');
}
