// Bundles the CLI (and the scripted model server used by the demo, tests and benchmarks) with
// esbuild. Splitting keeps the main program in a chunk loaded only for a real run; the vendor
// SDKs are separate CommonJS files with a V8 code cache (see kernel/vendor-module.ts).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';

const VENDORS = { 'anthropic-sdk': '@anthropic-ai/sdk', 'openai-sdk': 'openai' };

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
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
  external: ['typescript', 'web-tree-sitter', ...Object.values(VENDORS)],
  banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
};
await build({ ...esm, entryPoints: { mewcode: 'bin/cli.ts', index: 'index.ts' }, define: { __MEWCODE_BUNDLED__: 'true' } });
await build({ ...esm, entryPoints: { 'scripted-server': 'test/scripted-server/cli.ts', 'scripted-server-lib': 'test/scripted-server/index.ts' } });

for (const [name, pkg] of Object.entries(VENDORS)) {
  const outfile = `dist/vendor/${name}.cjs`;
  await build({ ...common, format: 'cjs', stdin: { contents: `module.exports = require(${JSON.stringify(pkg)});`, resolveDir: '.', loader: 'js' }, outfile, mainFields: ['module', 'main'] });
  execFileSync(process.execPath, ['scripts/code-cache.cjs', outfile], { stdio: 'inherit' });
}
