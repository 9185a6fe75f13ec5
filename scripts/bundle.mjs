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
  plugins: [highlightLanguages()],
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
