/**
 * Section validation with zod, and issue formatting with file:line:col.
 * zod is only a type import here: plugins bring their schemas, this file adds no start-up cost.
 */
import type { z } from 'zod';
import type { ConfigIssue, ConfigPath, ConfigSection, ResolvedConfig } from '../types/config.js';
import { renderConfigPath } from './config-path.js';
import { isRecord } from './is-record.js';
import { terminalSafe } from './terminal-safe.js';

type ZodIssue = z.core.$ZodIssue;

function toConfigPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
}

/** The parent of `path` is an object that does not have its last key at all. */
function isMissingKey(raw: unknown, path: ConfigPath): boolean {
  if (path.length === 0) return false;
  let parent: unknown = raw;
  for (const segment of path.slice(0, -1)) {
    if (typeof parent !== 'object' || parent === null) return false;
    parent = (parent as Record<string | number, unknown>)[segment];
  }
  const last = path[path.length - 1];
  return isRecord(parent) && last !== undefined && !Object.hasOwn(parent, String(last));
}

function toConfigIssues(issue: ZodIssue, raw: unknown): ConfigIssue[] {
  const path = toConfigPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    // One issue per key, located at the key's own value.
    return issue.keys.map((key) => ({ path: [...path, key], message: `Unknown key "${terminalSafe(key)}"` }));
  }
  if (issue.code === 'invalid_type') {
    if (isMissingKey(raw, path)) return [{ path, message: `Missing required key (expected ${issue.expected})` }];
    // zod 4 words it "Invalid input: expected number, received string"; keep custom messages.
    const standard = /^Invalid input: expected (.*)$/s.exec(issue.message);
    if (standard) return [{ path, message: `Expected ${standard[1]}` }];
  }
  return [{ path, message: issue.message }];
}

/** A zod schema of either API, classic (`zod`) or mini (`zod/mini`): what validation needs of it. */
export interface ZodSchema<T> {
  safeParse(data: unknown): z.core.util.SafeParseResult<T>;
}

/** A plugin's `ConfigSection` from a zod schema; issue paths are relative to the section. */
export function zodSection<T>(key: string, schema: ZodSchema<T>): ConfigSection<T> {
  return {
    key,
    parse(raw) {
      const result = schema.safeParse(raw);
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, issues: result.error.issues.flatMap((issue) => toConfigIssues(issue, raw)) };
    },
  };
}

/**
 * `config: <file>:<line>:<col>: <section>.<path>: <message>`, located at the value that won the
 * merge (or its nearest existing ancestor); `config: <section>.<path>: <message>` when the
 * section is in no file.
 */
export function formatConfigIssues(
  config: ResolvedConfig,
  section: string,
  issues: readonly ConfigIssue[],
): string[] {
  return issues.map((issue) => {
    const path = [section, ...issue.path];
    const where = config.locate(path);
    const rendered = renderConfigPath(path);
    return where === undefined ? `config: ${rendered}: ${issue.message}` : `config: ${where}: ${rendered}: ${issue.message}`;
  });
}
