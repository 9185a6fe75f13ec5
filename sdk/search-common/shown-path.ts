/**
 * A path copied from glob's or grep's output (`lib/caf\xe9.txt`, `a\\b.txt`: display-name.ts)
 * given back to grep, glob, read_file, edit_file or write_file. The tools' input check (which the
 * kernel runs before hooks, the permission layers and the audit see the call) replaces such a
 * path by the name it stands for when the path as written does not exist and that name does, so
 * every check — path rules, the project boundary, the sandbox, deny rules — judges the decoded
 * name, and the tool opens exactly what was judged. A real file named by the text itself (a
 * literal `\x41`) wins when it exists: the given text is looked up first.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { expandHome } from '../path-containment.js';
import type { ToolInput, ToolInputCheck } from '../../types/tools.js';
import { fsPath, nameOfShownPath } from './display-name.js';

export type PathRoots = () => { projectRoot: string; homeDir: string };

function exists(candidate: string, roots: { projectRoot: string; homeDir: string }): boolean {
  try {
    return lstatSync(fsPath(path.resolve(roots.projectRoot, expandHome(candidate, roots.homeDir))), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The path to use for `given`: itself, unless it does not exist and the name its escapes stand for does. */
export function resolveShownPath(given: string, roots: { projectRoot: string; homeDir: string }): string {
  const decoded = nameOfShownPath(given);
  if (decoded === undefined || decoded === given || exists(given, roots)) return given;
  return exists(decoded, roots) ? decoded : given;
}

/** A tool's input check, then its path fields resolved as above (the check's error wins). */
export function withShownPaths(check: ((input: ToolInput) => ToolInputCheck | Promise<ToolInputCheck>) | undefined, fields: readonly string[], roots: PathRoots): (input: ToolInput) => Promise<ToolInputCheck> {
  return async (input) => {
    const checked = check ? await check(input) : ({ ok: true, input } as ToolInputCheck);
    if (!checked.ok) return checked;
    let out: ToolInput | undefined;
    for (const field of fields) {
      const value = checked.input[field];
      if (typeof value !== 'string' || !value.includes('\\')) continue;
      const resolved = resolveShownPath(value, roots());
      if (resolved === value) continue;
      out ??= { ...checked.input };
      out[field] = resolved;
    }
    return out ? { ok: true, input: out } : checked;
  };
}
