/** Helpers for the MCP tests: temp projects whose user config names servers, and process checks. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../../../config/load.js';
import type { Kernel } from '../../../kernel/kernel.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import { createMcpPlugin } from '../../../plugins/mcp/index.js';
import type { McpServers, McpServerStatus } from '../../../types/mcp.js';
import type { MewcodePlugin } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, type Booted } from '../../support/boot.js';
import type { Step } from '../../support/memory-provider.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.join(here, '..', '..', '..');
export const FAKE_SERVER = path.join(here, 'fixtures', 'fake-server.mjs');
export const EVERYTHING = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
export const FILESYSTEM = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

export { removeTempDirs, temp as tempDir } from '../../support/temp-dirs.js';
import { temp as tempDir } from '../../support/temp-dirs.js';

export interface McpProject {
  root: string;
  home: string;
  pidFile: string;
}

/** A project and a home whose ~/.mewcode/config.yaml holds `config` (user scope: no trust needed). */
export function mcpProject(config: Record<string, unknown>): McpProject {
  const root = tempDir('mewcode-mcp-project-');
  const home = tempDir('mewcode-mcp-home-');
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(home, '.mewcode', 'config.yaml'), stringify(config));
  return { root, home, pidFile: path.join(root, 'pids.txt') };
}

export function fakeServer(project: McpProject, extra: Record<string, unknown> = {}, env: Record<string, string> = {}): Record<string, unknown> {
  return { type: 'stdio', command: process.execPath, args: [FAKE_SERVER, project.pidFile], env, ...extra };
}

export async function bootMcp(project: McpProject, steps: Step[], env: NodeJS.ProcessEnv = { PATH: process.env.PATH }, plugins: MewcodePlugin[] = []): Promise<Booted> {
  const config = await loadConfig({ cwd: project.root, homeDir: project.home });
  return bootKernel(steps, [outputLimits, ...plugins, createMcpPlugin({ env })], { projectRoot: project.root, homeDir: project.home, config });
}

export function mcpStatus(kernel: Kernel): McpServerStatus[] {
  return kernel.container.get<McpServers>(TOKENS.McpServers).status();
}

export async function settled(kernel: Kernel): Promise<McpServerStatus[]> {
  await kernel.container.get<McpServers>(TOKENS.McpServers).settled();
  return mcpStatus(kernel);
}

/** Every pid the fake server wrote: its own and its grandchild's. */
export function fakePids(project: McpProject): number[] {
  if (!existsSync(project.pidFile)) return [];
  return readFileSync(project.pidFile, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Running (a zombie, dead but not yet reaped by whoever adopted it, does not count). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) S …"; the state follows the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

export async function waitFor(predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Set one server entry in the user config (after mcpProject, so the entry can name the project's pid file). */
export function addServer(project: McpProject, name: string, entry: Record<string, unknown>): void {
  const file = path.join(project.home, '.mewcode', 'config.yaml');
  const config = (parse(readFileSync(file, 'utf8')) ?? {}) as Record<string, any>;
  config.mcp_servers = { ...(config.mcp_servers ?? {}), [name]: entry };
  writeFileSync(file, stringify(config));
}
