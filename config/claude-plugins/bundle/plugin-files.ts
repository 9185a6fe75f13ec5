/**
 * Reading a plugin's own files: bounded, never blocking on a FIFO (config/project-file.ts's
 * reader, without a project root: a plugin the user chose is the user's, and may be a link), and
 * JSON parsed with positions so a syntax error names file:line:col.
 */
import { parseJsonWithinDepth } from '../../nesting-depth.js';
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import type { LocatedNode } from '../../located.js';
import { parseConfigText } from '../../parse-file.js';
import { readProjectTextFile } from '../../project-file.js';

/** plugin.json, hooks.json and .mcp.json are small; a larger one is not read. */
export const MAX_JSON_BYTES = 1024 * 1024;
/** Command folders are walked this deep (subfolders namespace commands), and counted up to this many files. */
const MAX_DEPTH = 4;
const MAX_FILES = 1000;

/** `warnings`: what the positioned parse remarked, e.g. a key given twice (the last one is used, as JSON.parse does). */
export type JsonRead = { ok: true; value: unknown; node: LocatedNode; warnings: readonly string[] } | { ok: false; missing: boolean; message: string };

export function readJsonFile(file: string): JsonRead {
  const read = readProjectTextFile(file, { maxBytes: MAX_JSON_BYTES });
  if (!read.ok) return { ok: false, missing: read.missing === true, message: read.missing ? 'it does not exist' : `it cannot be read: ${read.reason}` };
  if (read.text.trim() === '') return { ok: false, missing: false, message: 'it is empty (a JSON object was expected)' };
  const name = file.endsWith('.json') ? file : `${file}.json`;
  let value: unknown;
  try {
    value = parseJsonWithinDepth(read.text);
  } catch {
    // `config: <file>:<line>:<col>: <message>`: the position is what the problem adds to the file's name.
    const parsed = parseConfigText(name, read.text);
    return { ok: false, missing: false, message: `not valid JSON (${(parsed.error ?? 'a syntax error').replace(/^config: /, '')})` };
  }
  // Parsed again with positions (for warnings naming file:line:col); only an object has them.
  const parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? parseConfigText(name, read.text) : undefined;
  const node: LocatedNode = parsed && !parsed.error ? parsed.root : { kind: 'map', pos: { file, line: 1, col: 1 }, entries: new Map() };
  return { ok: true, value, node, warnings: parsed?.warnings.map((w) => w.replace(/^config: /, '')) ?? [] };
}

export function statOf(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

export function realOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** `.md` files below `dir` (subfolders to MAX_DEPTH), or `[dir]` for a single `.md` file; bounded. */
export function markdownFiles(entry: string, recursive: boolean): string[] {
  const info = statOf(entry);
  if (info?.isFile()) return entry.endsWith('.md') ? [entry] : [];
  if (!info?.isDirectory()) return [];
  const found: string[] = [];
  const walk = (dir: string, depth: number): void => {
    if (depth > MAX_DEPTH || found.length >= MAX_FILES) return;
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const full = path.join(dir, name);
      const stats = statOf(full);
      if (stats?.isDirectory()) {
        if (recursive) walk(full, depth + 1);
      } else if (stats?.isFile() && name.endsWith('.md') && found.length < MAX_FILES) found.push(full);
    }
  };
  walk(entry, 1);
  return found;
}

/** Folders of `dir` that hold a SKILL.md. */
export function skillFolders(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names.filter((name) => !name.startsWith('.') && statOf(path.join(dir, name, 'SKILL.md'))?.isFile()).slice(0, MAX_FILES);
}

/** Line and column of the node at `path` below `node` (the nearest existing one above it when the path goes further). */
export function positionIn(node: LocatedNode, path: readonly (string | number)[]): { line: number; col: number } {
  let current = node;
  for (const step of path) {
    const next = current.kind === 'map' && typeof step === 'string' ? current.entries.get(step) : current.kind === 'seq' && typeof step === 'number' ? current.items[step] : undefined;
    if (!next) break;
    current = next;
  }
  return { line: current.pos.line, col: current.pos.col };
}
