// Bundles the CLI (and the scripted model server used by the demo, tests and benchmarks) with
// esbuild. Splitting keeps vendor SDKs and the main program in chunks loaded only when needed.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  // cosmiconfig's optional TypeScript loader: never used by MewCode, never bundled.
  external: ['typescript'],
  banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
};
await build({
  ...common,
  entryPoints: { mewcode: 'bin/cli.ts', index: 'index.ts' },
  outdir: 'dist',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
});
await build({ ...common, entryPoints: { 'scripted-server': 'test/scripted-server/cli.ts', 'scripted-server-lib': 'test/scripted-server/index.ts' }, outdir: 'dist', splitting: true, chunkNames: 'chunks/[name]-[hash]' });
