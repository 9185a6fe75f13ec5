/**
 * What the hook tests that run hooks inside the OS sandbox share: a directory outside the project
 * the sandbox can see (to show a hook wrote nothing there), a write_file stand-in that records
 * what it wrote, and the last tool results a request carried.
 */
import { afterEach } from '@jest/globals';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { ToolMessage } from '../../../types/messages.js';
import type { Tool } from '../../../types/tools.js';
import { removeTempDirs } from '../../support/temp-dirs.js';

const outsideDirs: string[] = [];
afterEach(() => {
  removeTempDirs();
  for (const dir of outsideDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Outside the project and visible inside the sandbox (its /tmp is private, so not there). */
export function outsideDir(): string {
  const dir = realpathSync(mkdtempSync(path.join(existsSync('/var/tmp') ? '/var/tmp' : '/tmp', 'mewcode-hooks-outside-')));
  outsideDirs.push(dir);
  return dir;
}

/** The paths writeTool wrote, in order (a test empties it first). */
export const written: string[] = [];
export const writeTool: Tool = { name: 'write_file', description: 'writes', inputSchema: { type: 'object' }, readOnly: false, execute: async (input) => (written.push(String(input.path)), { content: `wrote ${String(input.path)}` }) };
export const lastResults = (request: { messages: readonly unknown[] } | undefined): ToolMessage['results'] => ((request?.messages.at(-1) as ToolMessage | undefined)?.results ?? []);
