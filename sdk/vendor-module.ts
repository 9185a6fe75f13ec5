/**
 * Loads a large vendor module (an LLM SDK) fast. Node 20 has no module compile cache (Node 22's
 * `module.enableCompileCache`), and compiling the Anthropic SDK alone costs ≈50 ms on every
 * launch. So the build (scripts/bundle.mjs) also emits each SDK as one CommonJS file with a V8
 * code cache beside it, and the bundle loads that file through `vm.Script` with the cache
 * (≈15 ms). Outside the bundle (tests run the sources), or when the files are missing, the
 * plain `import()` is used; a cache V8 rejects (another Node version) only costs the compile.
 */
import { existsSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

/** Set by the bundler; undefined when the sources run directly (jest, tsc output). */
declare const __MEWCODE_BUNDLED__: boolean | undefined;

export async function importVendor<T>(name: string, viaImport: () => Promise<T>): Promise<T> {
  if (typeof __MEWCODE_BUNDLED__ === 'undefined') return viaImport();
  const file = vendorFile(name);
  if (!file) return viaImport();
  return loadCommonJs(file) as T;
}

function vendorFile(name: string): string | undefined {
  // This module may land in dist/ or dist/chunks/ depending on how the bundler splits.
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const dir of [path.join(here, 'vendor'), path.join(here, '..', 'vendor')]) {
    const file = path.join(dir, `${name}.cjs`);
    if (existsSync(file)) return file;
  }
  return undefined;
}

function loadCommonJs(file: string): unknown {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined; // no cache: compile normally
  }
  // The build emits ASCII only (test/extension/bundle-ascii.test.ts), so latin1 reads the same
  // text without Node's UTF-8 decoding, ≈ 10 times faster for a file this size.
  const script = new vm.Script(Module.wrap(readFileSync(file, 'latin1')), { filename: file, cachedData });
  if (process.env.MEWCODE_DEBUG?.includes('vendor')) {
    const state = cachedData === undefined ? 'no code cache' : script.cachedDataRejected ? 'code cache rejected' : 'code cache accepted';
    process.stderr.write(`mewcode: debug: loaded ${path.basename(file)} (${state})\n`);
  }
  const wrapper = script.runInThisContext() as (exports: object, require: NodeJS.Require, module: object, filename: string, dirname: string) => void;
  const module = { exports: {} as object };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  return module.exports;
}
