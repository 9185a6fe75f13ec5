/**
 * Attacks on the OS sandbox through the BUILT CLI: a scripted model issues bash (or file tool)
 * calls in a real project, then the test looks at the host for the effect (a canary a planted git
 * configuration would create at the user's next `git status`, a dotfile changed, a leftover).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OsCommandSandbox } from '../../plugins/sandbox-os/service.js';
import type { ScriptedTurn } from '../scripted-server/index.js';
import { startScriptedServer } from '../scripted-server/index.js';
import { anthropicEnv, REPO_ROOT, runCli, tempDir, type CliResult } from '../cli/helpers.js';

export interface ToolCallSpec {
  name: string;
  input: Record<string, unknown>;
}

export interface CliRun {
  result: CliResult;
  /** The text of each tool result the model received, in order. */
  toolResults: string[];
}

/** Whether bubblewrap (or sandbox-exec) can run here; under MEWCODE_REQUIRE_SANDBOX=1 it must. */
export async function sandboxActive(home: string): Promise<{ active: boolean; reason?: string }> {
  const status = await new OsCommandSandbox({ homeDir: home, warn: () => undefined }).probe();
  if (!status.active && process.env.MEWCODE_REQUIRE_SANDBOX === '1') throw new Error(`the OS sandbox must run here (MEWCODE_REQUIRE_SANDBOX=1) but: ${status.reason}`);
  return status.active ? { active: true } : { active: false, reason: status.reason ?? 'no sandbox' };
}

const turnsFor = (calls: readonly (ToolCallSpec | ToolCallSpec[])[]): ScriptedTurn[] => [
  ...calls.map((call, i) => ({ toolCalls: (Array.isArray(call) ? call : [call]).map((c, j) => ({ id: `call_${i}_${j}`, name: c.name, input: c.input })) })),
  { text: 'done' },
];

export const bash = (command: string): ToolCallSpec => ({ name: 'bash', input: { command } });

/**
 * The same command spelled so no analyser can see what it writes (decoded at run time): the OS
 * sandbox alone must hold, as against a model that avoids every spelling the rules know.
 */
export const opaqueBash = (command: string): ToolCallSpec => bash(`echo ${Buffer.from(command).toString('base64')} | base64 -d | sh`);

/** Runs `mewcode -p` in `cwd` with HOME `home` (and `env`), the model issuing `calls` (an array entry = parallel calls); `timeoutMs` for a run that makes thousands of files. */
export async function runModel(cwd: string, home: string, calls: readonly (ToolCallSpec | ToolCallSpec[])[], args: readonly string[] = [], env: Record<string, string> = {}, timeoutMs?: number): Promise<CliRun> {
  const server = await startScriptedServer({ turns: turnsFor(calls) });
  try {
    const result = await runCli(['-p', 'go', ...args], { cwd, env: { ...anthropicEnv(server, home), ...env }, ...(timeoutMs !== undefined ? { timeoutMs } : {}) });
    const toolResults: string[] = [];
    for (const request of server.requests) {
      const last = request.body.messages.at(-1);
      if (!Array.isArray(last?.content)) continue;
      for (const block of last.content) {
        if (block.type !== 'tool_result') continue;
        toolResults.push(typeof block.content === 'string' ? block.content : block.content.map((c: { text?: string }) => c.text ?? '').join(''));
      }
    }
    return { result, toolResults };
  } finally {
    await server.close();
  }
}

/**
 * A git project (one commit) and a home, in /var/tmp where possible: inside the sandbox /tmp is
 * private. `canary` is a path outside both that only a planted program would create.
 */
export function gitWorld(prefix: string): { root: string; home: string; canary: string; git(cwd: string, ...args: string[]): string } {
  const base = tempDir(`mc-${prefix}-`);
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(root);
  mkdirSync(home);
  const canary = path.join(base, 'PWNED');
  const git = (cwd: string, ...args: string[]): string => {
    try {
      return execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        cwd,
        env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 15_000,
      }).toString();
    } catch (error) {
      return String((error as { stderr?: Buffer }).stderr ?? error);
    }
  };
  git(root, 'init', '-q', '-b', 'main');
  writeFileSync(path.join(root, 'README.md'), 'hello\n');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'init');
  return { root, home, canary, git };
}

/** The user's own git on the host, in `cwd` (its failures do not matter, only what it wrote or ran); no editor opens. */
export function userGit(home: string, cwd: string, ...args: string[]): void {
  try {
    execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd, env: { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', GIT_EDITOR: 'true' }, stdio: 'ignore', timeout: 15_000 });
  } catch {
    // what git says does not matter
  }
}

/** A git configuration whose fsmonitor creates `canary` when git runs on the host. */
export const hostileConfig = (canary: string): string => `[core]\n\trepositoryformatversion = 0\n\tfsmonitor = "touch ${canary}; false"\n`;

/** Shell text that writes the hostile config to `file` (printf expands the \\n and \\t). */
export const writeHostileConfig = (file: string, canary: string): string => `printf '[core]\\n\\trepositoryformatversion = 0\\n\\tfsmonitor = "touch ${canary}; false"\\n' > ${file}`;

/** Shell text that makes `dir` a minimal git directory (HEAD, objects, refs) with a hostile config. */
export const plantGitDir = (dir: string, canary: string): string =>
  `mkdir -p ${dir}/objects ${dir}/refs/heads && printf 'ref: refs/heads/main\\n' > ${dir}/HEAD && ${writeHostileConfig(`${dir}/config`, canary)}`;

/**
 * Spawns the built CLI and returns it (for a kill -9 while a command runs). Resolves once the
 * scripted server has seen the request that returned the tool call.
 */
export async function spawnModel(
  cwd: string,
  home: string,
  calls: readonly (ToolCallSpec | ToolCallSpec[])[],
  options: { args?: readonly string[]; stdout?: 'ignore' | 'pipe' } = {},
): Promise<{ pid: number; child: ChildProcess; exited: Promise<void>; close(): Promise<void> }> {
  const server = await startScriptedServer({ turns: turnsFor(calls) });
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'mewcode.js'), '-p', 'go', ...(options.args ?? [])], { cwd, env: anthropicEnv(server, home) as NodeJS.ProcessEnv, stdio: ['pipe', options.stdout ?? 'ignore', 'ignore'] });
  child.stdin!.end('');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { pid: child.pid!, child, exited, close: () => server.close() };
}

export async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return check();
}

export const readText = (file: string): string | undefined => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);
