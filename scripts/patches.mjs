// The build's changes to third-party code, each written against one exact file of one exact package
// version. Every file a patch relies on is listed with its SHA-256: the build checks them all before
// it starts (`verifyPatches`, also run by `npm run check-deps`) and again as esbuild loads them, and
// any difference fails the build with the patch's name and the package version it found. A patch
// is then re-read against the new code, and its hashes updated, or dropped. package.json pins
// these packages exactly (`dependencies` for direct ones, `overrides` for the others), so an
// `npm install` never moves them silently.
//
// A file is found as the bundle resolves it: `from` is the chain of packages to resolve through,
// starting at the project (e.g. yoga-layout is Ink's dependency). A package can be installed more
// than once (another version for another dependent); the bundle may hold a file of a patched
// package only from the copy its patch verified, or from a copy the patch lists as left
// unpatched, with the reason. Any other copy fails the build, naming the patch and the file: a
// patch checked on one copy says nothing about another.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { patchStringWidth } from './string-width-patch.mjs';

/**
 * @typedef {{ name: string, why: string, package: string, from: string[], version: string, files: Record<string, string>, unpatchedCopies?: UnpatchedCopy[] }} Patch
 * `files`: path inside the package → SHA-256 of the text the patch was written against.
 * @typedef {{ from: string[], version: string, why: string }} UnpatchedCopy
 * Another copy of the package the bundle holds as published, found like the patched one.
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
    unpatchedCopies: [
      { from: ['ink', 'wrap-ansi'], version: '7.2.0', why: "Ink's wrap-ansi 9 depends on string-width 7, whose code this patch was not written for" },
      { from: ['marked-terminal', 'cli-table3'], version: '4.2.3', why: "marked-terminal's tables (cli-table3) depend on string-width 4, whose code this patch was not written for" },
    ],
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
    why: "cli-highlight's highlight.js reduced to its core and the languages scripts/highlight-languages.mjs imports (1.4 MB → 0.2 MB): relies on cli-highlight calling only highlight, highlightAuto, listLanguages and getLanguage",
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
 * Checks every patched file under `root` (the project) and finds the copies the bundle may hold.
 * Returns `files` (absolute real path of each checked file → its patch) and `copies` (real
 * directory of each copy of a patched package the bundle may hold → its patch, and whether it
 * is the verified, patched copy), with the project's `root`; throws a PatchMismatchError naming
 * each patch whose code differs.
 */
export function verifyPatches(root = process.cwd(), patches = PATCHES) {
  const files = new Map();
  const copies = new Map();
  const problems = [];
  for (const patch of patches) {
    let dir;
    try {
      dir = packageDirectory(root, patch.from, patch.package);
    } catch (error) {
      problems.push(`patch ${patch.name}: ${patch.package} cannot be found (${error.message.split('\n')[0]})`);
      continue;
    }
    copies.set(realpathSync(dir), { patch, patched: true });
    const version = versionOf(dir);
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
      files.set(realpathSync(path.join(dir, file)), patch); // esbuild names files by their real path
    }
    for (const copy of patch.unpatchedCopies ?? []) {
      let copyDir;
      try {
        copyDir = packageDirectory(root, copy.from, patch.package);
      } catch {
        continue; // not installed: nothing of it can be bundled
      }
      const found = versionOf(copyDir);
      if (found !== copy.version) problems.push(`patch ${patch.name}: the unpatched copy of ${patch.package} ${copy.from.length > 0 ? `through ${copy.from.join(' → ')}` : 'of the project'} is ${found}, listed as ${copy.version}; check whether the patch applies to it (scripts/patches.mjs)`);
      // The same directory as the patched copy stays the patched copy.
      else if (!copies.has(realpathSync(copyDir))) copies.set(realpathSync(copyDir), { patch, patched: false });
    }
  }
  if (problems.length > 0) throw new PatchMismatchError(problems.join('\n'));
  return { root: path.resolve(root), files, copies };
}

function versionOf(packageDir) {
  return JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
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
 * The esbuild plugin, given what `verifyPatches` returned: every file of a patched package (by
 * name, whichever copy) must come from a copy `verifyPatches` found; a patched file is checked
 * again as it is loaded (the bundle must use the very files `verifyPatches` checked) and
 * transformed where its patch changes text.
 */
export function verifiedPatches({ root, files, copies }) {
  const patchesOf = new Map(); // package name → the names of its patches
  for (const { patch } of copies.values()) patchesOf.set(patch.package, new Set([...(patchesOf.get(patch.package) ?? []), patch.name]));
  const realDirectory = new Map();
  return {
    name: 'verified-patches',
    setup(build) {
      const packages = [...patchesOf.keys()].map((name) => name.replace(/[.]/g, '\\.')).join('|');
      if (packages === '') return;
      build.onLoad({ filter: new RegExp(`[\\\\/]node_modules[\\\\/](?:${packages})[\\\\/]`) }, async (args) => {
        const owner = packageOf(args.path);
        if (!owner || !patchesOf.has(owner.name)) return undefined; // a dependency nested inside a patched package
        if (!realDirectory.has(owner.dir)) realDirectory.set(owner.dir, realpathSync(owner.dir));
        if (!copies.has(realDirectory.get(owner.dir))) return { errors: [{ text: unverifiedCopy(patchesOf.get(owner.name), owner, args.path, root, copies) }] };
        const patch = files.get(args.path);
        if (!patch) return undefined;
        const source = readFileSync(args.path, 'utf8');
        const file = path.relative(owner.dir, args.path).split(path.sep).join('/');
        if (sha256(source) !== patch.files[file]) throw new PatchMismatchError(`patch ${patch.name}: ${args.path} changed during the build`);
        const transform = TRANSFORMS[patch.name]?.[file];
        return transform ? { contents: transform(source, args.path), loader: 'js' } : undefined;
      });
    },
  };
}

/** The package a file belongs to: the innermost `node_modules/<name>` (or `@scope/name`) around it. */
function packageOf(file) {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf('node_modules');
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const length = parts[at + 1].startsWith('@') ? 2 : 1;
  return { name: parts.slice(at + 1, at + 1 + length).join('/'), dir: parts.slice(0, at + 1 + length).join(path.sep) };
}

function unverifiedCopy(patchNames, owner, file, root, copies) {
  let version = 'version unknown';
  try {
    version = versionOf(owner.dir);
  } catch {}
  const where = (dir) => path.relative(root, dir) || '.';
  const allowed = [...copies].filter(([, copy]) => copy.patch.package === owner.name);
  const verified = allowed.filter(([, copy]) => copy.patched).map(([dir]) => where(dir));
  const listed = allowed.filter(([, copy]) => !copy.patched).map(([dir]) => where(dir));
  return (
    `patch ${[...patchNames].join(', ')}: the bundle loads ${where(file)}, from a copy of ${owner.name} (${version}) that is neither the copy the patch verified ` +
    `(${verified.join(', ')}) nor one it lists as left unpatched${listed.length > 0 ? ` (${listed.join(', ')})` : ''}. Resolve the import to the verified copy, ` +
    `or list this copy in the patch's unpatchedCopies with the reason (scripts/patches.mjs)`
  );
}
