// Where the bundle (scripts/bundle.mjs) takes some third-party modules from: each redirect goes
// with a patch of scripts/patches.mjs, named in its comment. A stand-in (a file of scripts/ the
// bundle uses in place of a package's module) imports the package it stands in for as that
// package's dependent does: resolved from the dependent's directory along the patch's `from`
// chain. A search upward from scripts/ would find whichever copy the project's own node_modules
// holds (another version, when the project depends on the package itself), not the one
// `verifyPatches` checked.
import { realpathSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATCHES, packageDirectory } from './patches.mjs';

const SCRIPTS = path.dirname(realpathSync(fileURLToPath(import.meta.url)));
const standIn = (name) => path.join(SCRIPTS, name);

/** The esbuild plugins, for the project at `root` (the build's working directory). */
export function thirdPartyRedirects(root = process.cwd()) {
  return [highlightLanguages(root), markdownRendererOnDemand(root), oneStringWidth(root)];
}

/**
 * The directory `pkg` is resolved from by the package that depends on it in its patch's `from`
 * chain (the project itself when `from` is empty).
 */
function dependentDirectory(root, pkg) {
  const patch = PATCHES.find((candidate) => candidate.package === pkg);
  if (!patch) throw new Error(`no patch of ${pkg} in scripts/patches.mjs`);
  return patch.from.length > 0 ? packageDirectory(root, patch.from.slice(0, -1), patch.from.at(-1)) : path.resolve(root);
}

/** The stand-in `file`'s imports of `pkg` (`pkg`, `pkg/…`) resolved as `pkg`'s dependent resolves them. */
function resolveAsDependent(build, root, file, pkg) {
  const from = dependentDirectory(root, pkg);
  build.onResolve({ filter: new RegExp(`^${pkg.replace(/[.]/g, '\\.')}(?:/|$)`) }, async (args) => {
    if (args.importer !== file || args.pluginData?.asDependent) return undefined;
    const found = await build.resolve(args.path, { kind: args.kind, resolveDir: from, pluginData: { asDependent: true } });
    return found.errors.length > 0 ? { errors: found.errors } : { path: found.path, external: found.external, sideEffects: found.sideEffects };
  });
}

/**
 * What marked-terminal imports but the terminal UI's start does not need (patch
 * markdown-renderer-on-demand): cli-highlight loads at the first code block
 * (scripts/cli-highlight-on-first-use.mjs), node-emoji never (scripts/node-emoji-unused.mjs).
 * Only marked-terminal's own imports are redirected.
 */
function markdownRendererOnDemand(root) {
  const fromMarkedTerminal = /[\\/]node_modules[\\/]marked-terminal[\\/]/;
  const onFirstUse = standIn('cli-highlight-on-first-use.mjs');
  return {
    name: 'markdown-renderer-on-demand',
    setup(build) {
      resolveAsDependent(build, root, onFirstUse, 'cli-highlight');
      build.onResolve({ filter: /^(cli-highlight|node-emoji)$/ }, (args) => {
        if (!fromMarkedTerminal.test(args.importer)) return undefined;
        return { path: args.path === 'cli-highlight' ? onFirstUse : standIn('node-emoji-unused.mjs') };
      });
    },
  };
}

/** cli-highlight's `highlight.js` (all 190 languages, 1.4 MB) → the core with common languages (patch highlight-languages). */
function highlightLanguages(root) {
  const languages = standIn('highlight-languages.mjs');
  return {
    name: 'highlight-languages',
    setup(build) {
      resolveAsDependent(build, root, languages, 'highlight.js');
      build.onResolve({ filter: /^highlight\.js$/ }, () => ({ path: languages }));
    },
  };
}

/**
 * Ink, cli-truncate and widest-line each depend on string-width 8 and get their own copy of the
 * same version: their ES module imports resolve to Ink's one copy (the patched one, patch
 * string-width-lazy-emoji). A package that depends on another version (wrap-ansi: 7) keeps its
 * own, as npm installed it.
 */
function oneStringWidth(root) {
  let ink; // found at the first ES module import of string-width (a bundle without Ink has none)
  let target;
  return {
    name: 'one-string-width',
    setup(build) {
      build.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.kind !== 'import-statement' || args.pluginData?.oneStringWidth) return undefined;
        if (!ink) {
          const dir = dependentDirectory(root, 'string-width');
          ink = { dir, version: versionOf(packageDirectory(dir, [], 'string-width')) };
        }
        const own = await build.resolve('string-width', { resolveDir: args.resolveDir, kind: args.kind, pluginData: { oneStringWidth: true } });
        if (own.errors.length > 0 || versionOf(path.dirname(own.path)) !== ink.version) return undefined;
        target ??= await build.resolve('string-width', { resolveDir: ink.dir, kind: 'import-statement', pluginData: { oneStringWidth: true } });
        return target.errors.length > 0 ? { errors: target.errors } : { path: target.path };
      });
    },
  };
}

function versionOf(packageDir) {
  return JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
}
