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
  // cosmiconfig's optional TypeScript loader is never used; the SDKs are loaded from dist/vendor
  // (or, if that is missing, imported from node_modules), never bundled into the chunks;
  // web-tree-sitter finds its own .wasm next to its module, so it stays in node_modules.
  // Ink imports react-devtools-core only under DEV=true (a developer tool, not installed).
  external: ['typescript', 'web-tree-sitter', 'react-devtools-core', ...VENDOR_PACKAGES],
  // jsonc-parser's "main" is a UMD build whose `require("./impl/format")` calls esbuild cannot
  // follow (the bundle then fails at run time); its ESM build bundles cleanly.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
  // React and its reconciler ship a development and a production build chosen by NODE_ENV at run
  // time; only the production one goes into the terminal UI's chunk.
  define: { 'process.env.NODE_ENV': '"production"' },
  plugins: [highlightLanguages(), yogaWithoutFetch(), markdownRendererOnDemand()],
};
const main = await build({ ...esm, metafile: true, entryPoints: { mewcode: 'bin/cli.ts', index: 'index.ts', sdk: 'sdk/index.ts' }, define: { ...esm.define, __MEWCODE_BUNDLED__: 'true' } });
// The start-up path becomes two code-cached scripts (scripts/program-bundle.mjs) run by
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

/**
 * Ink's layout engine, yoga, ships its WebAssembly as a base64 `data:` URL that its Emscripten
 * loader reads with `fetch` whenever `fetch` exists. In Node that initialises undici and runs its
 * data-URL decoder: ≈ 60 ms of the terminal UI's start. With no `fetch` in the loader's scope it
 * takes its own synchronous path (decode the base64, `WebAssembly.instantiate` the bytes).
 */
function yogaWithoutFetch() {
  // The loader's own name for it, so no other code in the chunk loses the global `fetch`.
  const LOCAL = 'yogaLoaderFetch';
  return {
    name: 'yoga-without-fetch',
    setup(build) {
      build.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        const uses = source.match(/\bfetch\b/g)?.length ?? 0;
        // yoga-layout 3.x: two `typeof fetch` checks and two calls. Anything else is a new loader.
        if (uses !== 4 || source.includes(LOCAL)) throw new Error(`yoga-without-fetch: ${args.path} uses \`fetch\` ${uses} times, not the 4 this build knows; check its loader`);
        return { contents: `const ${LOCAL} = undefined;\n${source.replace(/\bfetch\b/g, LOCAL)}`, loader: 'js' };
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
