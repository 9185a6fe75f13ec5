/** Helpers for the programmatic API's tests: a scripted model server and an environment for query() pointing at it. */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { startScriptedServer, type ScriptedServer, type ScriptedTurn } from '../scripted-server/index.js';
import { anthropicEnv, tempDir } from '../cli/helpers.js';
import type { StreamMessage } from '../../api/index.js';

export interface ApiPlace {
  server: ScriptedServer;
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  /** What the query told the user (its `stderr` option). */
  stderr: string[];
  /** query()'s options for this place: its cwd and env, and `stderr` collected above. */
  options: { cwd: string; env: Record<string, string | undefined>; stderr: (text: string) => void };
}

export async function withPlace<T>(turns: ScriptedTurn[], body: (place: ApiPlace) => Promise<T>): Promise<T> {
  const server = await startScriptedServer({ turns });
  const cwd = tempDir('mewcode-api-cwd-');
  const home = tempDir('mewcode-api-home-');
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  try {
    const env = anthropicEnv(server, home);
    const stderr: string[] = [];
    return await body({ server, cwd, home, env, stderr, options: { cwd, env, stderr: (text) => stderr.push(text) } });
  } finally {
    await server.close();
  }
}

export async function collect(messages: AsyncIterable<StreamMessage>): Promise<StreamMessage[]> {
  const all: StreamMessage[] = [];
  for await (const message of messages) all.push(message);
  return all;
}

/** Only what differs from run to run: the session id, durations. */
export function normalised(messages: readonly unknown[]): unknown[] {
  return JSON.parse(
    JSON.stringify(messages, (key, value: unknown) => {
      if (key === 'session_id') return '<session>';
      if (key === 'duration_ms' || key === 'duration_api_ms') return 0;
      return value;
    }),
  ) as unknown[];
}
