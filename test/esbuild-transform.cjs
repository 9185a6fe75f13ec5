// Jest transformer: TypeScript to JavaScript with esbuild, the compiler the build itself uses.
// Why not ts-jest: it type-checks nothing here (isolatedModules) yet costs ≈ 2.4× the CPU on a cold
// jest cache, which is what a fresh clone runs; the type-check is its own test
// (test/architecture/typecheck.test.ts). esbuild reads tsconfig options through `tsconfigRaw`.
const crypto = require('node:crypto');
const fs = require('node:fs');
const esbuild = require('esbuild');

const compilerOptions = {
  experimentalDecorators: true,
  verbatimModuleSyntax: true,
  jsx: 'react-jsx',
};

// Part of every cache key: a new esbuild or a change to this file re-transforms everything.
const transformerIdentity = crypto
  .createHash('sha256')
  .update(esbuild.version)
  .update(fs.readFileSync(__filename))
  .digest('hex');

function loaderFor(file) {
  return /\.[cm]?tsx$/.test(file) ? 'tsx' : 'ts';
}

module.exports = {
  canInstrument: false,
  getCacheKey(sourceText, sourcePath, options) {
    return crypto
      .createHash('sha256')
      .update(transformerIdentity)
      .update(sourcePath)
      .update(options.supportsStaticESM ? 'esm' : 'cjs')
      .update(sourceText)
      .digest('hex');
  },
  process(sourceText, sourcePath, options) {
    const result = esbuild.transformSync(sourceText, {
      loader: loaderFor(sourcePath),
      format: options.supportsStaticESM ? 'esm' : 'cjs',
      target: 'node20',
      sourcemap: 'inline',
      sourcefile: sourcePath,
      tsconfigRaw: { compilerOptions },
    });
    return { code: result.code };
  },
};
