// Builds dist/: the package's three entry points bundled with esbuild as ES modules with source
// maps, their type declarations (tsc, dist/types), and the scripted model server used by the demo,
// tests and benchmarks. `npm run build` runs this script. `npm pack` packs the dist/ it made
// only when that build had the declarations and the commit being packed: its last step writes
// dist/build-stamp.json, which `prepack` (scripts/check-pack.mjs) reads.
//
// `mewcode` (the CLI), `index` (import 'mewcode') and `sdk` (import 'mewcode/sdk') are ONE
// esbuild build with splitting: an external plugin importing `mewcode/sdk` loads the very chunk
// files the CLI loaded, so there is one inversify and one tapable in the process. Splitting also
// keeps what a run may not need (the main program, the model and MCP SDKs, the terminal UI, each
// tool's implementation) in chunks loaded only by the `import()` that needs them, while the
// program itself comes in a few files (scripts/on-demand-modules.mjs).
//
// The source maps name the sources relative to dist/ (`../plugins/x/index.ts`), never this
// machine's paths; they carry no source text. `bin/mewcode.js` turns them on under `--debug` or
// MEWCODE_DEBUG, so a stack trace then names `.ts` files and lines.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gitHead } from './check-pack.mjs';
import { ESM_OUTPUT } from './esm-output.mjs';
import { onDemandModulesInsideProgram } from './on-demand-modules.mjs';
import { PatchMismatchError, verifiedPatches, verifyPatches } from './patches.mjs';
import { thirdPartyRedirects } from './third-party-redirects.mjs';

const TSC = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');

// First, before anything is removed or built: a patched package whose code moved fails the build.
// While bundling, a file of a patched package from any copy but the verified one fails it too.
let verified;
try {
  verified = verifyPatches();
} catch (error) {
  if (!(error instanceof PatchMismatchError)) throw error;
  process.stderr.write(`bundle: the build's patches of third-party code do not fit the installed packages:\n${error.message}\n`);
  process.exit(1);
}

rmSync('dist', { recursive: true, force: true });
// The declarations take longer than the bundles (a full type-check): emitted in parallel.
// `npm run test:e2e` type-checks nothing of its own and packs with them, so there they are emitted
// without a check (MEWCODE_BUILD_NO_CHECK, tsc --noCheck: the same files, in half the time).
// `npm test` reads none of them and type-checks the project among its tests
// (test/architecture/typecheck.test.ts): MEWCODE_BUILD_NO_TYPES leaves them out (≈ 10 s of CPU).
const declarations = process.env.MEWCODE_BUILD_NO_TYPES ? Promise.resolve(0) : runTsc(['-p', 'tsconfig.build.json', ...(process.env.MEWCODE_BUILD_NO_CHECK ? ['--noCheck'] : [])]);

const esm = {
  ...ESM_OUTPUT,
  sourcemap: 'linked',
  sourcesContent: false,
  splitting: true,
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  // web-tree-sitter finds its own .wasm next to its module, so it stays in node_modules.
  // Ink imports react-devtools-core only under DEV=true (a developer tool, not installed).
  external: ['web-tree-sitter', 'react-devtools-core'],
  // jsonc-parser's "main" is a UMD build whose `require("./impl/format")` calls esbuild cannot
  // follow (the bundle then fails at run time); its ESM build bundles cleanly.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  plugins: [verifiedPatches(verified), ...thirdPartyRedirects()],
};
// mewcode-shell-parser: the shell parser's own process (sdk/shell-command/parser-process.ts).
const entryPoints = { mewcode: 'bin/cli.ts', index: 'entry.ts', sdk: 'sdk/hardened.ts', 'mewcode-shell-parser': 'sdk/shell-command/parser-child.ts' };
// The program in a few chunk files, not ≈ 59 (scripts/on-demand-modules.mjs).
const programChunks = await onDemandModulesInsideProgram(esm, entryPoints, ['mewcode-shell-parser']);
await build({ ...esm, entryPoints, plugins: [...esm.plugins, programChunks] });
// The git sweep the sandbox's watchdog runs after MewCode died during a command
// (plugins/sandbox-os/recovery-main.ts): one file of its own, sharing no chunk with the program,
// whose start would otherwise load the files such sharing splits out.
await build({ ...esm, splitting: false, entryPoints: { 'mewcode-sweep-recovery': 'plugins/sandbox-os/recovery-main.ts' } });
// Test support, not part of the package: its chunks live apart so "files" can leave them out.
await build({
  ...esm,
  chunkNames: 'scripted-server-chunks/[name]-[hash]',
  entryPoints: { 'scripted-server': 'test/scripted-server/cli.ts', 'scripted-server-lib': 'test/scripted-server/index.ts' },
});

// The bash grammar the shell parser loads (sdk/shell-command/syntax-tree.ts): shipped in dist/,
// so tree-sitter-bash is a devDependency and installing MewCode never runs its native build.
copyFileSync(createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm'), 'dist/tree-sitter-bash.wasm');

const tscExit = await declarations;
if (tscExit !== 0) {
      // tsc still wrote every declaration; the error stops `npm run build` and `npm test`, and, with
  // no build stamp written, `npm pack` too.
  process.stderr.write(`bundle: tsc -p tsconfig.build.json failed (exit ${tscExit}); the declarations in dist/types may be wrong\n`);
  process.exit(1);
}

function runTsc(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TSC, ...args], { stdio: 'inherit' });
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? 1));
  });
}

// What this dist/ is, for `prepack` (scripts/check-pack.mjs): the commit it was built from and
// whether it has the declarations. Written last: a failed build leaves none.
writeFileSync('dist/build-stamp.json', `${JSON.stringify({ commit: gitHead(), types: !process.env.MEWCODE_BUILD_NO_TYPES }, null, 2)}\n`);
