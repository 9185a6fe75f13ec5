// The build's changes to third-party code, each written against one exact file of one exact package
// version. Every file a patch relies on is listed with its SHA-256: the build checks them all before
// it starts (`verifyPatches`, also run by `npm run check-deps`) and again as esbuild loads them, and
// any difference fails the build with the patch's name and the package version it found. A patch
// is then re-read against the new code, and its hashes updated, or dropped. package.json pins
// these packages exactly (`dependencies` for direct ones, `overrides` for the others), so an
// `npm install` never moves them silently.
//
// A file is found as the bundle resolves it: `from` is the chain of packages to resolve through,
// starting at the project (e.g. yoga-layout is Ink's dependency).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { patchStringWidth } from './string-width-patch.mjs';

/**
 * @typedef {{ name: string, why: string, package: string, from: string[], version: string, files: Record<string, string> }} Patch
 * `files`: path inside the package → SHA-256 of the text the patch was written against.
 */

/** @type {Patch[]} */
export const PATCHES = [
  {
    name: 'yoga-synchronous',
    why: "Ink's layout engine instantiated synchronously, without Node's fetch (≈ 60 ms of the terminal UI's start: fetch initialises undici to decode a data: URL)",
    package: 'yoga-layout',
    from: ['ink'],
    version: '3.2.1',
    files: {
      'dist/binaries/yoga-wasm-base64-esm.js': '2cfeda49ae87f57bcd4a5fe433940edefc531a69bd0f83e32759fb5837df205c',
      'dist/src/index.js': '0c89ff0c01ee90b081b369119f972d72f71eb8882263d94ef0824500817d5de1',
    },
  },
  {
    name: 'string-width-lazy-emoji',
    why: "string-width's RGI emoji expression built at first use and tested only where an emoji can be (≈ 45 ms of the terminal UI's first frame)",
    package: 'string-width',
    from: ['ink'],
    version: '8.3.0',
    files: { 'index.js': 'abc20775da6b552188b098688ebec671e29f5416d6339d3534bb7b016174003e' },
  },
  {
    name: 'markdown-renderer-on-demand',
    why: "marked-terminal's cli-highlight loaded at the first code block, its node-emoji never (its `emoji` option is off): relies on marked-terminal calling only highlight() and emoji.get()",
    package: 'marked-terminal',
    from: [],
    version: '7.3.1',
    files: { 'index.js': '8700c8c951657cce625477e92f12542e0d969e8c6ebc42e9e91dc8697f4238a5' },
  },
  {
    name: 'highlight-languages',
    why: "cli-highlight's highlight.js reduced to its core and 26 common languages (1.4 MB → 0.2 MB): relies on cli-highlight calling only highlight, highlightAuto, listLanguages and getLanguage",
    package: 'cli-highlight',
    from: ['marked-terminal'],
    version: '2.1.11',
    files: { 'dist/index.js': '5f0927273a4099b34afbc4a5397c98ae19383477481606dca6220e1b286ec4ed' },
  },
  {
    name: 'highlight-languages',
    why: "the highlight.js core and language files scripts/highlight-languages.mjs imports",
    package: 'highlight.js',
    from: ['marked-terminal', 'cli-highlight'],
    version: '10.7.3',
    files: { 'lib/core.js': 'c4d10bcc7cb543c36198d34d2ecfcee9f8fbdd82ec1531daa3962c86a6c95468' },
  },
];

export class PatchMismatchError extends Error {}

/**
 * The directory of `pkg` as the bundle resolves it from the project `root` through `from`: Node's
 * node_modules search, upward from each package's own directory (package.json files are read
 * directly: a package's "exports" may not list its manifest).
 */
export function packageDirectory(root, from, pkg) {
  let dir = path.resolve(root);
  for (const step of [...from, pkg]) dir = findPackage(dir, step);
  return dir;
}

function findPackage(start, name) {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    if (path.basename(dir) !== 'node_modules' && existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no node_modules/${name} above ${start}`);
  }
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

/**
 * Checks every patched file under `root` (the project). Returns the checked files (absolute
 * path → patch); throws a PatchMismatchError naming each patch whose code differs.
 */
export function verifyPatches(root = process.cwd(), patches = PATCHES) {
  const checked = new Map();
  const problems = [];
  for (const patch of patches) {
    let dir;
    try {
      dir = packageDirectory(root, patch.from, patch.package);
    } catch (error) {
      problems.push(`patch ${patch.name}: ${patch.package} cannot be found (${error.message.split('\n')[0]})`);
      continue;
    }
    const version = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
    for (const [file, expected] of Object.entries(patch.files)) {
      let text;
      try {
        text = readFileSync(path.join(dir, file), 'utf8');
      } catch {
        problems.push(`patch ${patch.name}: ${patch.package}@${version} has no ${file} (written for ${patch.package}@${patch.version})`);
        continue;
      }
      if (sha256(text) !== expected) {
        problems.push(`patch ${patch.name}: ${patch.package}@${version} ${file} differs from the ${patch.package}@${patch.version} code it was written for; re-read the patch against the new code (scripts/patches.mjs)`);
        continue;
      }
      checked.set(realpathSync(path.join(dir, file)), patch); // esbuild names files by their real path
    }
  }
  if (problems.length > 0) throw new PatchMismatchError(problems.join('\n'));
  return checked;
}

/** A file's one match of `pattern` replaced; any other count fails the build. */
function replaceExactlyOnce(patch, source, file, pattern, replacement) {
  const found = source.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
  if (found !== 1) throw new PatchMismatchError(`patch ${patch}: ${file} has ${found} matches of ${pattern}, not 1`);
  return source.replace(pattern, () => replacement);
}

/** The text changes, by patch name and file inside the package (the other patches redirect imports). */
const TRANSFORMS = {
  'yoga-synchronous': {
    // The loader's `fetch` becomes a name of its own, left undefined, so Emscripten reads the
    // WebAssembly with its own base64 decoder; `wa` is that decoder, handed to instantiateWasm.
    'dist/binaries/yoga-wasm-base64-esm.js': (source, file) => {
      const withBytes = replaceExactlyOnce('yoga-synchronous', source, file, /h\.instantiateWasm\(d,\s*a\)/, 'h.instantiateWasm(d,a,wa)');
      return `const yogaLoaderFetch = undefined;\n${withBytes.replace(/\bfetch\b/g, 'yogaLoaderFetch')}`;
    },
    'dist/src/index.js': (source, file) =>
      replaceExactlyOnce(
        'yoga-synchronous',
        source,
        file,
        /const Yoga = wrapAssembly\(await loadYoga\(\)\);/,
        `const loaded = {
  instantiateWasm(imports, receive, wasmBytes) {
    const instance = new WebAssembly.Instance(new WebAssembly.Module(wasmBytes()), imports);
    receive(instance);
    return instance.exports;
  },
};
loadYoga(loaded); // runs to the end at once: nothing it waits for is asynchronous now
if (!loaded.calledRun) throw new Error('yoga did not load synchronously');
const Yoga = wrapAssembly(loaded);`,
      ),
  },
  'string-width-lazy-emoji': { 'index.js': (source, file) => patchStringWidth(source, file) },
};

/**
 * The esbuild plugin: every patched file is checked again as it is loaded (the bundle must use the
 * very files `verifyPatches` checked), and transformed where its patch changes text.
 */
export function verifiedPatches(checked) {
  return {
    name: 'verified-patches',
    setup(build) {
      const packages = [...new Set(PATCHES.map((patch) => patch.package))].map((name) => name.replace(/[.]/g, '\\.')).join('|');
      build.onLoad({ filter: new RegExp(`[\\\\/]node_modules[\\\\/](?:${packages})[\\\\/]`) }, async (args) => {
        const patch = checked.get(args.path);
        if (!patch) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const file = path.relative(packageRoot(args.path, patch.package), args.path).split(path.sep).join('/');
        if (sha256(source) !== patch.files[file]) throw new PatchMismatchError(`patch ${patch.name}: ${args.path} changed during the build`);
        const transform = TRANSFORMS[patch.name]?.[file];
        return transform ? { contents: transform(source, args.path), loader: 'js' } : undefined;
      });
    },
  };
}

function packageRoot(file, pkg) {
  const marker = `${path.sep}node_modules${path.sep}${pkg.split('/').join(path.sep)}${path.sep}`;
  return file.slice(0, file.lastIndexOf(marker) + marker.length - 1);
}
