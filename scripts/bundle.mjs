// Builds dist/: the package's three entry points bundled with esbuild, their type declarations
// (tsc, dist/types), the scripted model server used by the demo, tests and benchmarks, and the
// vendor SDK files. `npm run build` and `prepare` (so `npm pack` and `npm install` from a checkout)
// both run this script, so a packed tarball always holds the declarations its "types" point to.
//
// `mewcode` (the CLI), `index` (import 'mewcode') and `sdk` (import 'mewcode/sdk') are ONE
// esbuild build with splitting: an external plugin importing `mewcode/sdk` loads the very chunk
// files the CLI loaded, so there is one inversify and one tapable in the process. Splitting also
// keeps the main program in a chunk loaded only for a real run; the vendor SDKs are separate
// CommonJS files with a V8 code cache (see sdk/vendor-module.ts).
import { build } from 'esbuild';
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildProgram } from './program-bundle.mjs';
import { patchStringWidth } from './string-width-patch.mjs';

const VENDORS = { 'anthropic-sdk': './plugins/provider-anthropic/vendor.ts', 'openai-sdk': 'openai', 'mcp-sdk': './plugins/mcp/vendor.ts' };
// Packages only the vendor files contain (the main build keeps them out of its chunks).
const VENDOR_PACKAGES = ['@anthropic-ai/sdk', '@anthropic-ai/sdk/*', 'openai', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'];
const TSC = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

rmSync('dist', { recursive: true, force: true });
// The declarations take longer than the bundles (a full type-check): emitted in parallel.
const declarations = runTsc(['-p', 'tsconfig.build.json']);

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  // Comments and indentation cost start-up: every byte is read and decoded, and a single non-ASCII
  // character in a comment makes V8 hold the whole file as a two-byte string (slower to decode and
  // to scan). Names stay, and the linked source maps still point into the sources.
  minifyWhitespace: true,
};
const esm = {
  ...common,
  format: 'esm',
  sourcemap: 'linked',
  splitting: true,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  // The SDKs are loaded from dist/vendor (or, if that is missing, imported from node_modules),
  // never bundled into the chunks;
  // web-tree-sitter finds its own .wasm next to its module, so it stays in node_modules.
  // Ink imports react-devtools-core only under DEV=true (a developer tool, not installed).
  external: ['web-tree-sitter', 'react-devtools-core', ...VENDOR_PACKAGES],
  // jsonc-parser's "main" is a UMD build whose `require("./impl/format")` calls esbuild cannot
  // follow (the bundle then fails at run time); its ESM build bundles cleanly.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
  // React and its reconciler ship a development and a production build chosen by NODE_ENV at run
  // time; only the production one goes into the terminal UI's chunk.
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [highlightLanguages(), yogaSynchronous(), inkWithoutTopLevelAwait(), markdownRendererOnDemand(), oneStringWidth()],
};
const main = await build({ ...esm, metafile: true, entryPoints: { mewcode: 'bin/cli.ts', index: 'index.ts', sdk: 'sdk/index.ts' }, define: { ...esm.define, __MEWCODE_BUNDLED__: 'true' } });
// The program becomes code-cached scripts (scripts/program-bundle.mjs) run by
// bin/program-loader.js; their caches are written below, after the scripted server and the vendor
// files the rehearsal uses are built.
await build({ ...common, bundle: false, format: 'esm', entryPoints: ['bin/program-loader.js'], outfile: 'dist/program-loader.js' });
const program = await buildProgram(main.metafile, { dist: 'dist', entry: 'dist/mewcode.js', mainEntryPoint: 'bin/main.ts' });
// Test support, not part of the package: its chunks live apart so "files" can leave them out.
await build({
  ...esm,
  chunkNames: 'scripted-server-chunks/[name]-[hash]',
  entryPoints: { 'scripted-server': 'test/scripted-server/cli.ts', 'scripted-server-lib': 'test/scripted-server/index.ts' },
});

for (const [name, pkg] of Object.entries(VENDORS)) {
  const outfile = `dist/vendor/${name}.cjs`;
  await build({ ...common, format: 'cjs', inject: ['scripts/vendor-globals.mjs'], define: { 'globalThis.ReadableStream': '__mewcodeReadableStream' }, stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: '.', loader: 'js' }, outfile, mainFields: ['module', 'main'] });
  execFileSync(process.execPath, ['scripts/code-cache.cjs', outfile], { stdio: 'inherit' });
}

// After the vendor files: the rehearsal loads the SDKs the way the CLI does.
execFileSync(process.execPath, ['scripts/program-cache.mjs', program.mainKey], { stdio: ['ignore', 'ignore', 'inherit'] });

const tscExit = await declarations;
if (tscExit !== 0) {
  // tsc still wrote every declaration; the error makes `npm test` / `npm pack` stop, as it should.
  process.stderr.write(`bundle: tsc -p tsconfig.build.json failed (exit ${tscExit}); the declarations in dist/types may be wrong\n`);
  process.exit(1);
}

/** A package file's one match of `pattern` replaced; any other count fails the build (the package changed). */
function replaceExactlyOnce(plugin, source, file, pattern, replacement) {
  const found = source.match(new RegExp(pattern.source, 'g'))?.length ?? 0;
  if (found !== 1) throw new Error(`${plugin}: ${file} has ${found} matches of ${pattern}, not the 1 this build knows; check the package's new version`);
  return source.replace(pattern, () => replacement);
}

/**
 * Ink's layout engine, yoga, loaded synchronously. Its Emscripten loader reads the WebAssembly (a
 * base64 `data:` URL) with `fetch` whenever `fetch` exists, which in Node initialises undici and
 * its data-URL decoder (≈ 60 ms of the terminal UI's start), and its module waits for it with a
 * top-level `await`, which keeps the UI's chunk an ES module compiled from source at every start
 * (scripts/program-bundle.mjs). Here the loader's `fetch` is a name of its own, left undefined, and
 * yoga's entry instantiates the module synchronously through Emscripten's `instantiateWasm`
 * option, handed the loader's own decoder of the data URL. The build fails if yoga's files change
 * shape.
 */
function yogaSynchronous() {
  const LOCAL_FETCH = 'yogaLoaderFetch';
  const packageFile = (...parts) => new RegExp(`[\\\\/]yoga-layout[\\\\/]dist[\\\\/]${parts.join('[\\\\/]').replace(/\./g, '\\.')}$`);
  const replaceOnce = (source, file, pattern, replacement) => replaceExactlyOnce('yoga-synchronous', source, file, pattern, replacement);
  return {
    name: 'yoga-synchronous',
    setup(build) {
      build.onLoad({ filter: packageFile('binaries', 'yoga-wasm-base64-esm.js') }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const uses = source.match(/\bfetch\b/g)?.length ?? 0;
        // yoga-layout 3.x: two `typeof fetch` checks and two calls.
        if (uses !== 4 || source.includes(LOCAL_FETCH)) throw new Error(`yoga-synchronous: ${args.path} uses "fetch" ${uses} times, not the 4 this build knows; check its loader`);
        // `wa` is the loader's synchronous reader of its data URL (base64 → bytes).
        const withBytes = replaceOnce(source, args.path, /h\.instantiateWasm\(d,\s*a\)/, 'h.instantiateWasm(d,a,wa)');
        return { contents: `const ${LOCAL_FETCH} = undefined;\n${withBytes.replace(/\bfetch\b/g, LOCAL_FETCH)}`, loader: 'js' };
      });
      build.onLoad({ filter: packageFile('src', 'index.js') }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const contents = replaceOnce(
          source,
          args.path,
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
        );
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * Ink's reconciler waits with top-level `await` for what it needs only under `DEV=true` (React
 * DevTools, which the bundle does not carry, and its own package.json for them). Without those
 * awaits the terminal UI's chunk can be a code-cached script. Under `DEV=true` Ink still prints its
 * warning that react-devtools-core is missing, as it does today. The build fails if the file changes shape.
 */
function inkWithoutTopLevelAwait() {
  const edits = [
    [/await import\('\.\/devtools\.js'\);/, "throw Object.assign(new Error('react-devtools-core is not part of the MewCode bundle'), { code: 'ERR_MODULE_NOT_FOUND' });"],
    [/\? await loadPackageJson\(\)/, '? { name: undefined, version: undefined }'],
  ];
  return {
    name: 'ink-without-top-level-await',
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, async (args) => {
        let contents = await readFile(args.path, 'utf8');
        for (const [pattern, replacement] of edits) contents = replaceExactlyOnce('ink-without-top-level-await', contents, args.path, pattern, replacement);
        return { contents, loader: 'js' };
      });
    },
  };
}

/**
 * What marked-terminal imports but the terminal UI's start does not need: cli-highlight loads at the
 * first code block (scripts/cli-highlight-on-first-use.mjs), node-emoji never (its `emoji` option
 * is off: scripts/node-emoji-unused.mjs). Only marked-terminal's own imports are redirected.
 */
function markdownRendererOnDemand() {
  const fromMarkedTerminal = /[\\/]node_modules[\\/]marked-terminal[\\/]/;
  return {
    name: 'markdown-renderer-on-demand',
    setup(build) {
      build.onResolve({ filter: /^(cli-highlight|node-emoji)$/ }, (args) => {
        if (!fromMarkedTerminal.test(args.importer)) return undefined;
        return { path: path.resolve(args.path === 'cli-highlight' ? 'scripts/cli-highlight-on-first-use.mjs' : 'scripts/node-emoji-unused.mjs') };
      });
    },
  };
}

/**
 * The terminal UI's libraries each bring their own string-width (Ink, wrap-ansi, cli-truncate and
 * widest-line: versions 7 and 8), and each built its segmenter and emoji expressions at load. Their
 * ES module imports resolve to Ink's one copy (version 8), made lazy where it was slow
 * (scripts/string-width-patch.mjs). CommonJS requires (cli-table3's version 4, another API) keep
 * their own.
 */
function oneStringWidth() {
  let target;
  return {
    name: 'one-string-width',
    setup(build) {
      build.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.kind !== 'import-statement' || args.pluginData?.oneStringWidth) return undefined;
        target ??= await build.resolve('string-width', { resolveDir: path.resolve('node_modules/ink'), kind: 'import-statement', pluginData: { oneStringWidth: true } });
        return target.errors.length > 0 ? { errors: target.errors } : { path: target.path };
      });
      build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
        if (args.path !== target?.path) return undefined;
        return { contents: patchStringWidth(await readFile(args.path, 'utf8'), args.path), loader: 'js' };
      });
    },
  };
}

/** cli-highlight's `highlight.js` (all 190 languages, 1.4 MB) → the core with common languages. */
function highlightLanguages() {
  return {
    name: 'highlight-languages',
    setup(build) {
      build.onResolve({ filter: /^highlight\.js$/ }, () => ({ path: path.resolve('scripts/highlight-languages.mjs') }));
    },
  };
}

function runTsc(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, ...args], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
}
