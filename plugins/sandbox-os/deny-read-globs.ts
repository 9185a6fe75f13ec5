/**
 * `sandbox.deny_read` entries with glob characters (a star for one path segment, two stars for
 * any depth, as in `~/.config/<star>/token`): a
 * mount needs a path, so each pattern is expanded at every call by walking from its literal
 * prefix, with read-rules.ts's walk and bounds (the same walk the rules layer's Read deny rules
 * use). Matching is picomatch's, with `dot: true`: a credential file is usually a dotfile.
 * Plain paths are not patterns and never reach this file.
 */
import picomatch from 'picomatch';
import { globMatcher } from '../../sdk/linear-regex/picomatch.js';
import type { SandboxReadRules } from '../../types/sandbox.js';

export function isGlob(entry: string): boolean {
  return picomatch.scan(entry).isGlob;
}

/** The patterns as the predicate and prefixes read-rules.ts walks; undefined when there are none. */
export function globReadRules(patterns: readonly string[]): SandboxReadRules | undefined {
  if (patterns.length === 0) return undefined;
  // Linear-time matching (a glob with many stars on a long path would stall a backtracking regex).
  const tests = patterns.map((pattern) => globMatcher(pattern, { dot: true }));
  const matches = (absolutePath: string): boolean => tests.some((test) => test(absolutePath));
  const prefixes = [...new Set(patterns.map((pattern) => picomatch.scan(pattern).base || '/'))];
  return { hidden: (absolutePath) => matches(absolutePath), prefixes };
}
