// How the CLI's code is emitted and what it runs with, shared by the build (scripts/bundle.mjs) and
// the stack floor of bench b (scripts/bench/stack-floor.mjs), so the floor measures code built
// exactly as the CLI's is. Paths are relative to the package root (the build's working directory);
// `inject` is absolute so a build started elsewhere finds the file too.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ESM_OUTPUT = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  logLevel: 'warning',
  // Comments and indentation cost start-up (every byte is read and scanned); names stay, and the
  // source maps point into the sources.
    minifyWhitespace: true,
  // Paths as the package sees them: with node_modules a symlink (a worktree, a linked install),
  // esbuild would otherwise name the link's target, the build machine's own folders, in source
  // maps and in the keys of bundled CommonJS modules (test/cli/source-maps.test.ts).
  preserveSymlinks: true,
  // CommonJS packages in the bundle `require` Node's built-ins.
  banner: { js: "import { createRequire as __mewcodeCreateRequire } from 'node:module'; const require = __mewcodeCreateRequire(import.meta.url);" },
  // React and its reconciler ship a development and a production build chosen by NODE_ENV at run
  // time; only the production one goes into the terminal UI's chunk.
  // The SDKs' `Headers`, `FormData` and `globalThis.ReadableStream` without loading undici
  // (scripts/vendor-globals.mjs). Their code is bundled with these stand-ins, so the three SDKs
  // (@anthropic-ai/sdk, openai, @modelcontextprotocol/sdk) are pinned exactly in package.json, and
  // `npm run check-deps` runs the built CLI against the scripted model server (both protocols) and
  // loads every chunk of the bundle.
  define: { 'process.env.NODE_ENV': '"production"', 'globalThis.ReadableStream': '__mewcodeReadableStream' },
  inject: [path.join(path.dirname(fileURLToPath(import.meta.url)), 'vendor-globals.mjs')],
};
