/**
 * The plugin directories every source names for this run, read without loading the loader (a run
 * with no Claude Code plugin loads nothing more: the loader brings the YAML/JSON parser). A
 * source that throws is kept as a failure to report.
 */
import type { ClaudePluginRoot, ClaudePluginRootSource } from '../../types/claude-plugins.js';

export interface CollectedRoots {
  roots: ClaudePluginRoot[];
  failures: { source: string; message: string }[];
}

export function collectRoots(sources: readonly ClaudePluginRootSource[]): CollectedRoots {
  const collected: CollectedRoots = { roots: [], failures: [] };
  for (const source of sources) {
    try {
      collected.roots.push(...source.roots());
    } catch (error) {
      collected.failures.push({ source: source.name, message: error instanceof Error ? error.message : String(error) });
    }
  }
  return collected;
}
