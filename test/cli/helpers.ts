/**
 * Helpers for the CLI acceptance tests: run the BUILT `mewcode` launcher in a child process with
 * a temp working directory, a temp HOME and a minimal environment, against the scripted model
 * server started in this process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedServer, type LoggedRequest, type ScriptedServer, type ScriptedTurn } from '../scripted-server/index.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const DIST = join(REPO_ROOT, 'dist');

/** A child that has not exited after this long is killed and the test fails with its output. */
const RUN_TIMEOUT_MS = 20_000;

const cleanups: string[] = [];

/** Writes `text` to `file`, making its folders first. */
export function writeFileAndDirs(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  cleanups.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  // A child that is still exiting (a terminal UI in tmux) may write one last file meanwhile: retried
  // for up to 5 s (a loaded machine in parallel runs). A directory that still cannot go is left in
  // the system's temporary folder: what the tests checked was already checked.
  for (const dir of cleanups.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 50, retryDelay: 100 });
    } catch (error) {
      process.stderr.write(`test cleanup: ${dir} left behind: ${(error as Error).message}\n`);
    }
  }
}

/** The built launcher (`npm test` builds before jest runs). */
export function prepareCli(): Promise<string> {
  if (!existsSync(join(DIST, 'mewcode.js'))) {
    return Promise.reject(new Error(`The CLI is not built (${DIST}/mewcode.js is missing): run \`npm run build\` first.`));
  }
  return Promise.resolve(join(REPO_ROOT, 'bin', 'mewcode.js'));
}

// ---------------------------------------------------------------------------------------------
// Running the CLI

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (closed empty when omitted). */
  input?: string;
  /** Instead of RUN_TIMEOUT_MS (runs that make many sandboxed calls at once). */
  timeoutMs?: number;
  /** Descriptors the CLI inherits beyond stdin/stdout/stderr (its fd number → an fd of this process), as a parent process may leave open. */
  inheritedFds?: Record<number, number>;
}

export async function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  const bin = await prepareCli();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;
  const stdio: ('pipe' | 'ignore' | number)[] = ['pipe', 'pipe', 'pipe'];
  for (const [at, fd] of Object.entries(options.inheritedFds ?? {})) {
    while (stdio.length <= Number(at)) stdio.push('ignore');
    stdio[Number(at)] = fd;
  }
  // stdin, stdout and stderr are always pipes.
  const child = spawn(process.execPath, [bin, ...args], { cwd: options.cwd, env, stdio }) as ChildProcessWithoutNullStreams;
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.on('error', () => undefined); // the CLI may exit without reading stdin
  child.stdin.end(options.input ?? '');
  let timedOut = false;
  const timeoutMs = options.timeoutMs ?? RUN_TIMEOUT_MS;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (c, s) => resolve([c, s]));
  }).finally(() => clearTimeout(timer));
  if (timedOut) throw new Error(`mewcode ${args.join(' ')} did not exit within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`);
  return { code, signal, stdout, stderr };
}

// ---------------------------------------------------------------------------------------------
// Environments and scenarios

/** The Anthropic variables of the brief; nothing else of process.env is inherited. */
export function anthropicEnv(server: ScriptedServer, home: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: server.url,
    MEWCODE_PROVIDER: 'anthropic',
    MEWCODE_MODEL: 'x',
  };
}

export function openaiEnv(server: ScriptedServer, home: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: `${server.url}/v1`,
    MEWCODE_PROVIDER: 'openai',
    MEWCODE_MODEL: 'x',
  };
}

export interface Scenario {
  server: ScriptedServer;
  cwd: string;
  home: string;
  env: Record<string, string | undefined>;
  requests: LoggedRequest[];
  run(args: readonly string[], options?: { input?: string; env?: Record<string, string | undefined>; timeoutMs?: number }): Promise<CliResult>;
}

/**
 * A fresh server, cwd and HOME; `body` runs with them and the server is always closed.
 * `protocol` picks the default environment.
 */
export async function scenario<T>(
  turns: ScriptedTurn[],
  body: (s: Scenario) => Promise<T>,
  protocol: 'anthropic' | 'openai' = 'anthropic',
): Promise<T> {
  const server = await startScriptedServer({ turns });
  const cwd = tempDir('mewcode-cli-cwd-');
  const home = tempDir('mewcode-cli-home-');
  const env = protocol === 'anthropic' ? anthropicEnv(server, home) : openaiEnv(server, home);
  try {
    return await body({
      server,
      cwd,
      home,
      env,
      requests: server.requests,
      run: (args, options = {}) => {
        const runOptions: RunOptions = { cwd, env: { ...env, ...options.env } };
        if (options.input !== undefined) runOptions.input = options.input;
        if (options.timeoutMs !== undefined) runOptions.timeoutMs = options.timeoutMs;
        return runCli(args, runOptions);
      },
    });
  } finally {
    await server.close();
  }
}

/** Exactly one JSON object on stdout (one line plus newline), parsed. */
export function singleJsonObject(stdout: string): Record<string, any> {
  const lines = stdout.split('\n');
  if (lines.length !== 2 || lines[1] !== '') throw new Error(`expected exactly one line of JSON on stdout, got:\n${stdout}`);
  const value: unknown = JSON.parse(lines[0]!);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`stdout is JSON but not an object: ${stdout}`);
  return value as Record<string, any>;
}

/** Text of every text block of the last user message of an Anthropic request body. */
export function lastUserTexts(body: any): string[] {
  const messages: any[] = body.messages;
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return [];
  if (typeof last.content === 'string') return [last.content];
  return (last.content as any[]).filter((b) => b.type === 'text').map((b) => b.text as string);
}

export const SESSION_ID_RE = /^\d{8}-\d{6}-[0-9a-f]{4}$/;

/** The tool result the model was sent for call `id` (its text, and whether it was an error). */
export function toolResultOf(requests: { body: any }[], id: string): { content: string; is_error?: boolean } {
  for (const request of requests) {
    for (const message of request.body.messages) {
      if (!Array.isArray(message.content)) continue;
      const block = message.content.find((b: any) => b.type === 'tool_result' && b.tool_use_id === id);
      if (block) return { content: typeof block.content === 'string' ? block.content : block.content.map((c: any) => c.text).join(''), is_error: block.is_error };
    }
  }
  throw new Error(`no result for ${id}`);
}
