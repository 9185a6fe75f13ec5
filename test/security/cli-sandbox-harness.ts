/**
 * End-to-end attempts on the OS sandbox through the BUILT CLI: a scripted model issues bash calls
 * (default mode, an untrusted project, the sandbox on, no flag), and each attempt is judged by what
 * reached the model (every request body the CLI sent) or the host (a server's log).
 *
 * The home, the project and the outside canaries live in /var/tmp: inside the sandbox /tmp is a
 * private directory, so anything under the host's /tmp would simply be absent there and an attempt
 * on it would prove nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OsCommandSandbox } from '../../plugins/sandbox-os/service.js';
import type { SandboxStatus } from '../../types/sandbox.js';
import { runCli, type CliResult } from '../cli/helpers.js';
import { startScriptedServer } from '../scripted-server/index.js';

const VISIBLE_TMP = process.env.MEWCODE_TEST_VISIBLE_TMP ?? (existsSync('/var/tmp') ? '/var/tmp' : os.tmpdir());

export interface CliSandboxDirs {
  base: string;
  home: string;
  project: string;
  outside: string;
  cleanup(): void;
}

/** A fresh home (with `sandbox:` settings when given) and a git project, in /var/tmp. */
export function cliSandboxDirs(options: { sandboxYaml?: string } = {}): CliSandboxDirs {
  const base = realpathSync(mkdtempSync(path.join(VISIBLE_TMP, 'mc-e2e-')));
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  for (const dir of [home, project, outside, path.join(home, '.mewcode')]) mkdirSync(dir, { recursive: true });
  if (options.sandboxYaml !== undefined) writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), `sandbox:${options.sandboxYaml}\n`);
  writeFileSync(path.join(project, 'README.md'), '# demo\n');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: project });
  return { base, home, project, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Whether the OS sandbox can run here with these settings (probed the way the CLI will). */
export async function sandboxStatus(home: string): Promise<SandboxStatus> {
  const sandbox = new OsCommandSandbox({ homeDir: home, warn: () => undefined });
  await sandbox.start();
  return sandbox.probe();
}

export interface BashRun {
  cli: CliResult;
  /** tool_use id → the tool result's text, as the model received it. */
  results: Map<string, string>;
  /** Every request body the CLI sent, concatenated: a secret anywhere in it reached the model. */
  sent: string;
}

/** One CLI run: the model asks for all `calls` at once (parallel tool calls), then ends. */
export async function runBashCalls(dirs: CliSandboxDirs, calls: readonly { id: string; command: string }[], env: Record<string, string> = {}, inheritedFds?: Record<number, number>): Promise<BashRun> {
  const server = await startScriptedServer({
    turns: [{ toolCalls: calls.map((call) => ({ id: call.id, name: 'bash', input: { command: call.command, timeout: 30_000 } })) }, { text: 'done' }],
  });
  try {
    const cli = await runCli(['-p', 'go', '--output-format', 'json'], {
      cwd: dirs.project,
      env: {
        PATH: process.env.PATH,
        HOME: dirs.home,
        ANTHROPIC_API_KEY: 'test-key',
        ANTHROPIC_BASE_URL: server.url,
        MEWCODE_PROVIDER: 'anthropic',
        MEWCODE_MODEL: 'x',
        ...env,
      },
      timeoutMs: 90_000,
      ...(inheritedFds ? { inheritedFds } : {}),
    });
    const results = new Map<string, string>();
    for (const request of server.requests) {
      for (const message of request.body.messages ?? []) {
        if (!Array.isArray(message.content)) continue;
        for (const block of message.content) {
          if (block.type !== 'tool_result') continue;
          results.set(block.tool_use_id, typeof block.content === 'string' ? block.content : block.content.map((part: { text?: string }) => part.text ?? '').join(''));
        }
      }
    }
    return { cli, results, sent: server.requests.map((request) => request.rawBody).join('\n') };
  } finally {
    await server.close();
  }
}

/** The tool result of `id`, or a failure naming what the CLI said (the call never ran). */
export function resultOf(run: BashRun, id: string): string {
  const result = run.results.get(id);
  if (result === undefined) throw new Error(`no tool result for ${id}; CLI exit ${run.cli.code}\nstdout: ${run.cli.stdout.slice(0, 2000)}\nstderr: ${run.cli.stderr.slice(0, 2000)}`);
  return result;
}

/** A tool result that says bash was not sandboxed (it asked instead): the run proves nothing. */
export function assertSandboxed(run: BashRun, id: string): void {
  const result = resultOf(run, id);
  if (/needs approval/.test(result)) throw new Error(`bash was not run in the sandbox (it asked for approval): ${result.slice(0, 500)}`);
}
