// Copied to dist/program-loader.js by the build. Runs dist/program.cjs (the CLI's start-up
// modules as CommonJS functions; see scripts/program-bundle.mjs) with its V8 code cache, once per
// process, and instantiates its modules on demand. The ES module files the program replaced
// import `programModule` from here, so every importer gets the same instance.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';

const DIST = path.dirname(fileURLToPath(import.meta.url));
const PROGRAM = path.join(DIST, 'program.cjs');
// One table per installed copy: a plugin with its own copy of MewCode gets its own program.
const REGISTRY = Symbol.for('mewcode/programs');

/** The exports of one of the program's modules ("chunks/x.js", "mewcode.js"), run on first use. */
export function programModule(key) {
  return loadProgram().require(key);
}

/** The program of this copy of MewCode: `require(key)` and the script (the build caches it). */
export function loadProgram() {
  const programs = (globalThis[REGISTRY] ??= new Map());
  let program = programs.get(PROGRAM);
  if (!program) {
    program = instantiate();
    programs.set(PROGRAM, program);
  }
  return program;
}

function instantiate() {
  let cachedData;
  try {
    cachedData = readFileSync(`${PROGRAM}.cache`);
  } catch {
    cachedData = undefined; // no cache (a build without one): compiled as it runs
  }
  const script = new vm.Script(readFileSync(PROGRAM, 'utf8'), { filename: PROGRAM, cachedData });
  if (process.env.MEWCODE_DEBUG?.includes('program')) {
    const state = cachedData === undefined ? 'no code cache' : script.cachedDataRejected ? 'code cache rejected' : 'code cache accepted';
    process.stderr.write(`mewcode: debug: loaded program.cjs (${state})\n`);
  }
  const factories = script.runInThisContext();
  const instances = new Map();

  function require(key) {
    const existing = instances.get(key);
    if (existing) return existing.exports;
    const factory = factories[key];
    if (typeof factory !== 'function') throw new Error(`mewcode: program.cjs has no module ${key}; rebuild with \`npm run build\``);
    const module = { exports: {} };
    instances.set(key, module);
    const file = path.join(DIST, key);
    const nodeRequire = createRequire(file);
    const inProgram = (specifier) => (specifier.startsWith('./') || specifier.startsWith('../') ? path.posix.join(path.posix.dirname(key), specifier) : undefined);
    const moduleRequire = (specifier) => {
      const target = inProgram(specifier);
      return target !== undefined && target in factories ? require(target) : nodeRequire(specifier);
    };
    // A relative specifier names a file beside the module (another chunk); a bare one a package or
    // a URL, resolved from dist/ as it would be from dist/chunks/.
    const moduleImport = async (specifier) => {
      const target = typeof specifier === 'string' ? inProgram(specifier) : undefined;
      if (target === undefined) return import(specifier);
      return target in factories ? require(target) : import(pathToFileURL(path.join(DIST, target)).href);
    };
    factory.call(undefined, module.exports, moduleRequire, module, pathToFileURL(file).href, moduleImport);
    return module.exports;
  }

  return { require, script };
}
