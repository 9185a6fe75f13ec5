/** Shared set-up for the bash tool tests: a temporary project, the real OutputLimits, a context. */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { BashTool, type BashToolOptions } from '../../../plugins/tool-bash/bash-tool.js';
import type { AgentSession } from '../../../types/session.js';
import type { ToolContext, ToolOutput } from '../../../types/tools.js';
import { noLateOutput } from '../../support/tool-context.js';

export interface Project {
  root: string;
  spillDir: string;
  tool: BashTool;
  context(overrides?: Partial<ToolContext>): ToolContext;
}

let calls = 0;

export async function project(options: BashToolOptions = {}): Promise<Project> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-bash-')));
  const spillDir = path.join(root, '.mewcode', 'tool-output');
  const tool = new BashTool(createOutputLimits(spillDir), options);
  return {
    root,
    spillDir,
    tool,
    context: (overrides = {}) => ({
      signal: new AbortController().signal,
      projectRoot: root,
      homeDir: os.homedir(),
      sessionId: 'session-test',
      agentId: 'main',
      // The bash tool never uses the calling session.
      session: undefined as unknown as AgentSession,
      toolCallId: `call_${++calls}`,
      lateOutput: noLateOutput,
      ...overrides,
    }),
  };
}

/** The command's output as the result shows it: everything after the `exit_code:` line. */
export function body(result: ToolOutput): string {
  const newline = result.content.indexOf('\n');
  return newline < 0 ? '' : result.content.slice(newline + 1);
}

/** The spill file path named in a result. */
export function spillPathOf(result: ToolOutput): string {
  const match = /saved in (\/\S+?\.log)/.exec(result.content) ?? / in (\/\S+?\.log);/.exec(result.content);
  if (!match) throw new Error(`no spill path in: ${result.content.slice(0, 300)}`);
  return match[1] as string;
}

/** True once `pid` no longer exists (a zombie awaiting its reaper counts as gone). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return zombie(pid);
}

function zombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) S …"; the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}

export async function waitUntilGone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (processGone(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return processGone(pid);
}

export async function readPid(file: string, withinMs = 2000): Promise<number> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    try {
      const pid = Number.parseInt((await readFile(file, 'utf8')).trim(), 10);
      if (pid > 0) return pid;
    } catch {
      // not written yet
    }
    if (Date.now() > deadline) throw new Error(`no pid in ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
