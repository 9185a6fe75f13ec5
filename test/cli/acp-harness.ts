/**
 * Drives the BUILT `mewcode acp` with the ACP SDK's client side over the child's stdio, against
 * the scripted model server: every stdout line is kept (to check that only JSON-RPC goes there),
 * every `session/update` is recorded per session, and permission requests are answered by a
 * function the test chooses.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { Writable } from 'node:stream';
import { expect } from '@jest/globals';
import * as acp from '@agentclientprotocol/sdk';
import { prepareCli, type Scenario } from './helpers.js';

export type PermissionAnswer = (request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionResponse> | acp.RequestPermissionResponse;

export interface AcpClient {
  child: ChildProcessWithoutNullStreams;
  agent: acp.ClientContext;
  /** Every update received, in order, with the session it was for. */
  updates: { sessionId: string; update: acp.SessionUpdate }[];
  permissionRequests: acp.RequestPermissionRequest[];
  /** A log of what arrived, in order: `update:<kind>` and what the test pushes itself. */
  order: string[];
  stdoutLines(): string[];
  stderr(): string;
  updatesOf(sessionId: string): acp.SessionUpdate[];
  /** Resolves when an update of this kind has arrived for the session. */
  waitForUpdate(sessionId: string, kind: acp.SessionUpdate['sessionUpdate'], timeoutMs?: number): Promise<acp.SessionUpdate>;
  answer: { permission: PermissionAnswer; writeTextFile?: (request: acp.WriteTextFileRequest) => Promise<acp.WriteTextFileResponse> };
  /** initialize; `capabilities` are the editor's (none by default: the agent uses the disk). */
  initialize(capabilities?: acp.ClientCapabilities): Promise<acp.InitializeResponse>;
  /** Ends the connection (stdin closed), or with `signal` stops the agent as an editor may. */
  close(options?: { signal?: NodeJS.Signals }): Promise<number | null>;
}

export const allowOnce: PermissionAnswer = () => ({ outcome: { outcome: 'selected', optionId: 'allow_once' } });

export async function startAcp(options: { cwd: string; env: Record<string, string | undefined>; args?: string[] }): Promise<AcpClient> {
  const bin = await prepareCli();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  const child = spawn(process.execPath, [bin, 'acp', ...(options.args ?? [])], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  // The raw bytes are kept and handed on to the SDK's reader.
  const input = new ReadableStream<Uint8Array>({
    start(controller) {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        try {
          controller.enqueue(new Uint8Array(chunk));
        } catch {
          // the connection already cancelled its reader; the text is still kept in `stdout`
        }
      });
      child.stdout.on('end', () => {
        try {
          controller.close();
        } catch {
          // the connection already cancelled its reader
        }
      });
    },
  });
  const output = Writable.toWeb(child.stdin) as WritableStream<Uint8Array>;
  const updates: AcpClient['updates'] = [];
  const permissionRequests: acp.RequestPermissionRequest[] = [];
  const order: string[] = [];
  const waiters: { sessionId: string; kind: string; resolve(update: acp.SessionUpdate): void }[] = [];
  const answer: AcpClient['answer'] = { permission: allowOnce };
  const connection = acp
    .client({ name: 'mewcode-acp-test' })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      updates.push({ sessionId: params.sessionId, update: params.update });
      order.push(`update:${params.update.sessionUpdate}`);
      for (const waiter of waiters.splice(0)) {
        if (waiter.sessionId === params.sessionId && waiter.kind === params.update.sessionUpdate) waiter.resolve(params.update);
        else waiters.push(waiter);
      }
    })
    .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
      permissionRequests.push(params);
      order.push('request_permission');
      return answer.permission(params);
    })
    .onRequest('fs/write_text_file', async ({ params }) => {
      order.push('write_text_file');
      if (!answer.writeTextFile) throw acp.RequestError.methodNotFound('fs/write_text_file');
      return answer.writeTextFile(params);
    })
    .connect(acp.ndJsonStream(output, input));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const updatesOf = (sessionId: string) => updates.filter((u) => u.sessionId === sessionId).map((u) => u.update);
  return {
    child,
    agent: connection.agent,
    updates,
    permissionRequests,
    order,
    answer,
    stdoutLines: () => stdout.split('\n').filter((line) => line !== ''),
    stderr: () => stderr,
    updatesOf,
    waitForUpdate: (sessionId, kind, timeoutMs = 15_000) => {
      const found = updatesOf(sessionId).find((u) => u.sessionUpdate === kind);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no ${kind} update for ${sessionId} within ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
        waiters.push({ sessionId, kind, resolve: (update) => (clearTimeout(timer), resolve(update)) });
      });
    },
    initialize: (capabilities = {}) => connection.agent.request('initialize', { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: capabilities, clientInfo: { name: 'mewcode-acp-test', version: '1' } }),
    close: async (options = {}) => {
      if (options.signal) child.kill(options.signal);
      connection.close();
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Starts `mewcode acp` in the scenario's project, runs `body`, then ends the connection (stdin
 * closed, or `stopWith`): the agent exits 0 and wrote nothing but JSON-RPC on stdout.
 */
export async function withAgent<T>(s: Scenario, body: (client: AcpClient) => Promise<T>, options: { env?: Record<string, string | undefined>; args?: string[]; stopWith?: NodeJS.Signals } = {}): Promise<T> {
  const client = await startAcp({ cwd: s.cwd, env: { ...s.env, ...options.env }, ...(options.args ? { args: options.args } : {}) });
  try {
    return await body(client);
  } finally {
    const code = await client.close(options.stopWith ? { signal: options.stopWith } : {});
    expectOnlyJsonRpc(client.stdoutLines());
    expect(code).toBe(0);
  }
}

/** initialize, then session/new in `cwd`: the new session's id. */
export async function newSession(client: AcpClient, cwd: string): Promise<string> {
  await client.initialize();
  return (await client.agent.request('session/new', { cwd, mcpServers: [] })).sessionId;
}

/** session/prompt with one text block. */
export function promptText(client: AcpClient, sessionId: string, text: string, options?: { cancellationSignal: AbortSignal }): Promise<acp.PromptResponse> {
  return client.agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text }] }, options);
}

/** A scripted answer streamed slowly enough to act mid-answer: `count` words, one every `delayMs`. */
export function slowAnswer(count: number, delayMs: number): { text: string[]; chunkDelayMs: number } {
  return { text: Array.from({ length: count }, (_, i) => `word${i} `), chunkDelayMs: delayMs };
}

/** Resolves once `done()` holds, checking every 20 ms (the test's own time-out bounds the wait). */
export async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** Every line on stdout is one JSON-RPC 2.0 message. */
export function expectOnlyJsonRpc(lines: readonly string[]): void {
  for (const line of lines) {
    let message: any;
    try {
      message = JSON.parse(line);
    } catch {
      throw new Error(`a line on stdout is not JSON: ${line}`);
    }
    if (message?.jsonrpc !== '2.0') throw new Error(`a line on stdout is not JSON-RPC 2.0: ${line}`);
  }
}

export function textOf(updates: readonly acp.SessionUpdate[], kind: 'agent_message_chunk' | 'agent_thought_chunk' | 'user_message_chunk'): string {
  return updates
    .filter((u): u is Extract<acp.SessionUpdate, { sessionUpdate: typeof kind }> => u.sessionUpdate === kind)
    .map((u) => (u.content.type === 'text' ? u.content.text : ''))
    .join('');
}
