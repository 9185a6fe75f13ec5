/** Real temporary trees and tool contexts for the glob and grep tests. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ToolContext } from '../../../types/tools.js';
import type { OutputLimits } from '../../../types/services.js';
import { createOutputLimits } from '../../../plugins/output-limits/index.js';
import { findRipgrep } from '../../../plugins/tool-grep/find-ripgrep.js';
import { toolContext as contextFor } from '../../support/tool-context.js';

export type TreeSpec = Record<string, string | Buffer | { link: string }>;

/** A fresh directory (real path) with the given files; `{link}` makes a symlink. */
export function makeTree(spec: TreeSpec, prefix = 'mewcode-search-'): string {
  const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), prefix)));
  writeTree(root, spec);
  return root;
}

export function writeTree(root: string, spec: TreeSpec): void {
  for (const [rel, content] of Object.entries(spec)) {
    const file = path.join(root, rel);
    mkdirSync(path.dirname(file), { recursive: true });
    if (typeof content === 'object' && !Buffer.isBuffer(content)) symlinkSync(content.link, file);
    else writeFileSync(file, content);
  }
}

export function removeTree(root: string): void {
  rmSync(root, { recursive: true, force: true });
}

/** Sets a file's mtime to `secondsAgo` seconds before a fixed reference. */
export function setAge(root: string, rel: string, secondsAgo: number): void {
  const when = new Date(Date.UTC(2024, 0, 1) - secondsAgo * 1000);
  utimesSync(path.join(root, rel), when, when);
}

export function toolContext(root: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return contextFor({ signal, projectRoot: root, homeDir: os.homedir() });
}

export function testLimits(root: string): OutputLimits {
  return createOutputLimits(path.join(root, '.mewcode', 'tool-output'));
}

export const RG_PATH = findRipgrep();
export const RG_REQUIRED = process.env.MEWCODE_REQUIRE_RG === '1';

/** The lines real `rg` prints searching `root` with `flags` then `args`, `./` dropped; exit 0 or 1 (matches or none) expected. */
export function rgLines(root: string, flags: readonly string[], args: readonly string[]): string[] {
  const result = spawnSync(RG_PATH!, [...flags, ...args, '--', '.'], { cwd: root, encoding: 'utf8' });
  expect([0, 1]).toContain(result.status);
  return result.stdout.split('\n').filter((l) => l !== '').map((l) => l.replace(/^\.\//, ''));
}
