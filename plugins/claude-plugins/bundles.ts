/**
 * Every plugin directory of this run, from every TOKENS.ClaudePluginRoots source (installed
 * plugins, `--plugin-dir`), read once, `--plugin-dir` ones first. The same directory named twice loads once; a second plugin
 * with a name already taken is not loaded (its commands, agents and servers would collide), and
 * both are named.
 */
import path from 'node:path';
import type { ClaudePluginBundle, ClaudePluginRootSource } from '../../types/claude-plugins.js';
import { collectRoots, type CollectedRoots } from './roots.js';
import { loadBundle, notLoaded } from '../../config/claude-plugins/bundle/load-bundle.js';
import { realOf } from '../../config/claude-plugins/bundle/plugin-files.js';

export function loadBundles(sources: readonly ClaudePluginRootSource[], homeDir: string, projectRoot?: string): ClaudePluginBundle[] {
  return loadRoots(collectRoots(sources), homeDir, projectRoot);
}

export function loadRoots({ roots, failures }: CollectedRoots, homeDir: string, projectRoot?: string): ClaudePluginBundle[] {
  const failed = failures.map(({ source, message }) =>
    notLoaded({ id: source, root: '', origin: 'settings' }, source, [{ file: source, message: `the source of plugin directories "${source}" failed: ${message}` }]),
  );
  const seenDirs = new Set<string>();
  const byName = new Map<string, ClaudePluginBundle>();
  const bundles: ClaudePluginBundle[] = [];
  // A directory named on the command line comes first: while developing a plugin that is also
  // installed, `--plugin-dir` is the copy that loads (the installed one clashes by name).
  const ordered = [...roots.filter((root) => root.origin === 'plugin-dir'), ...roots.filter((root) => root.origin !== 'plugin-dir')];
  for (const root of ordered) {
    const real = realOf(path.resolve(root.root));
    if (seenDirs.has(real)) continue;
    seenDirs.add(real);
    const bundle = loadBundle(root, homeDir, projectRoot);
    const first = bundle.loaded ? byName.get(bundle.name) : undefined;
    if (first) {
      bundles.push({
        ...bundle,
        loaded: false,
        problems: [...bundle.problems, { file: bundle.root, message: `the plugin name "${bundle.name}" is already used by ${first.id} (${first.root}); this one is not loaded` }],
      });
      continue;
    }
    if (bundle.loaded) byName.set(bundle.name, bundle);
    bundles.push(bundle);
  }
  return [...bundles, ...failed];
}
