/**
 * Shared set-up of the file-tool adversarial suites (A15): a project and an outside area
 * of canaries in temp dirs, the five tools, a snapshot that proves the outside area unchanged,
 * and a racer process that swaps links in a tight loop while the tools run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileReadTrackerImpl } from '../../kernel/file-read-tracker.js';
import { createOutputLimits } from '../../plugins/output-limits/index.js';
import { EditFileTool } from '../../plugins/tool-edit-file/edit-file-tool.js';
import { GlobTool } from '../../plugins/tool-glob/glob-tool.js';
import { GrepTool } from '../../plugins/tool-grep/grep-tool.js';
import { findRipgrep } from '../../plugins/tool-grep/find-ripgrep.js';
import { ReadFileTool } from '../../plugins/tool-read-file/read-file-tool.js';
import { WriteFileTool } from '../../plugins/tool-write-file/write-file-tool.js';
import type { ToolContext, ToolInput, ToolOutput } from '../../types/tools.js';

/** What no tool result may ever contain: the content of the outside canaries, and an outside-only name. */
export const CANARY = `OUTSIDE-CANARY-${process.pid}-${Date.now().toString(36)}`;
export const OUTSIDE_ONLY = 'outside-only-secret.txt';
export const INSIDE = 'inside content\n';

export interface World {
  root: string;
  outside: string;
  reads: FileReadTrackerImpl;
  context: ToolContext;
  read(input: ToolInput): Promise<ToolOutput>;
  write(input: ToolInput): Promise<ToolOutput>;
  edit(input: ToolInput): Promise<ToolOutput>;
  glob(input: ToolInput): Promise<ToolOutput>;
  grep(input: ToolInput, engine: 're2js' | 'ripgrep'): Promise<ToolOutput>;
  /** Everything under the outside area: names, inodes, sizes, mtimes, contents. */
  outsideSnapshot(): string;
  cleanup(): void;
}

export const RG_PATH = findRipgrep();

export function makeWorld(): World {
  const base = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mc-file-race-')));
  const root = path.join(base, 'project');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(outside, 'dir'), { recursive: true });
  mkdirSync(root);
  writeFileSync(path.join(outside, 'canary.txt'), `${CANARY}\n`);
  writeFileSync(path.join(outside, 'dir', 'f.txt'), `${CANARY}\n`);
  writeFileSync(path.join(outside, 'dir', OUTSIDE_ONLY), `${CANARY}\n`);
  const reads = new FileReadTrackerImpl();
  const limits = createOutputLimits(path.join(root, '.mewcode', 'tool-output'));
  const context = { signal: new AbortController().signal, projectRoot: root, homeDir: path.join(base, 'home'), sessionId: 's', agentId: 'main', toolCallId: 'c' } as ToolContext;
  const readTool = new ReadFileTool(limits, reads);
  const writeTool = new WriteFileTool(reads);
  const editTool = new EditFileTool(limits, reads);
  const globTool = new GlobTool(limits);
  const grepTools = { re2js: new GrepTool(limits, { engine: 're2js' }), ripgrep: new GrepTool(limits, { engine: 'ripgrep' }) };
  return {
    root,
    outside,
    reads,
    context,
    read: (input) => readTool.execute(input, context),
    write: (input) => writeTool.execute(input, context),
    edit: (input) => editTool.execute(input, context),
    glob: (input) => globTool.execute(input, context),
    grep: (input, engine) => grepTools[engine].execute(input, context),
    outsideSnapshot: () => snapshot(outside),
    cleanup: () => rmSync(base, { recursive: true, force: true }),
  };
}

function snapshot(dir: string): string {
  const lines: string[] = [];
  const visit = (at: string): void => {
    for (const name of readdirSync(at).sort()) {
      const file = path.join(at, name);
      const info = lstatSync(file);
      // nlink is left out: replacing a project name that was a hard link lowers it, by design.
      lines.push(`${path.relative(dir, file)} ino=${info.ino} size=${info.size} mtime=${info.mtimeMs} mode=${info.mode}`);
      if (info.isDirectory()) visit(file);
      else if (info.isFile()) lines.push(readFileSync(file, 'utf8'));
    }
  };
  visit(dir);
  return lines.join('\n');
}

/** A result leaks when it shows canary content or an outside-only name. */
export function leaks(output: ToolOutput): boolean {
  return output.content.includes(CANARY) || output.content.includes(OUTSIDE_ONLY);
}

/**
 * The racer: a separate process (so it really runs in parallel with the tool's system calls)
 * that flips `at` between two states as fast as it can, for at most `maxMs`:
 * - `link-target`: `at` is a symlink, alternately to `a` and to `b`;
 * - `file-or-link`: `at` is alternately a regular file (content `text`, mtime fixed at `mtimeS`
 *   so a read record stays valid) and a symlink to `b`;
 * - `dir-or-link`: `at` is alternately a real directory (parked at `a` in between) and a symlink to `b`.
 */
export interface RaceSpec {
  mode: 'link-target' | 'file-or-link' | 'dir-or-link';
  at: string;
  a: string;
  b: string;
  text?: string;
  mtimeS?: number;
  maxMs?: number;
}

const RACER = `
const fs = require('node:fs');
const spec = JSON.parse(process.argv[1]);
const tmp = spec.at + '.racer-link';
const tmpFile = spec.at + '.racer-file';
const end = Date.now() + (spec.maxMs || 3000);
const link = (target) => { try { fs.unlinkSync(tmp); } catch {} fs.symlinkSync(target, tmp); fs.renameSync(tmp, spec.at); };
const file = () => {
  // O_EXCL on a name only the racer uses: a leftover link there is never written through.
  try { fs.unlinkSync(tmpFile); } catch {}
  const fd = fs.openSync(tmpFile, 'wx');
  fs.writeSync(fd, spec.text);
  fs.futimesSync(fd, spec.mtimeS, spec.mtimeS);
  fs.closeSync(fd);
  fs.renameSync(tmpFile, spec.at);
};
const toDir = () => { try { fs.unlinkSync(spec.at); } catch {} try { fs.renameSync(spec.a, spec.at); } catch {} };
const toLink = () => { try { fs.renameSync(spec.at, spec.a); } catch {} link(spec.b); };
let n = 0;
for (;;) {
  try {
    if (spec.mode === 'link-target') { link(spec.a); link(spec.b); }
    else if (spec.mode === 'file-or-link') { file(); link(spec.b); }
    else { toDir(); toLink(); }
  } catch {}
  if (++n === 1) process.stdout.write('ready\\n');
  if (Date.now() > end) break;
}
`;

export async function startRacer(spec: RaceSpec): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn(process.execPath, ['-e', RACER, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', () => resolve());
  });
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
}

/** Run `call` `times` times, two at a time, while the racer runs; true when any result leaked. */
export async function underRace(times: number, call: (i: number) => Promise<ToolOutput>): Promise<{ leaked: boolean; outputs: ToolOutput[] }> {
  const outputs: ToolOutput[] = [];
  for (let i = 0; i < times; i += 2) outputs.push(...(await Promise.all([call(i), call(i + 1)])));
  return { leaked: outputs.some(leaks), outputs };
}
