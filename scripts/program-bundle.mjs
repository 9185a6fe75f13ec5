// Moves the CLI's start-up path into code-cached scripts (Node 20 has no compile cache for ES
// modules; compiling the ≈ 35 chunk files a run loads costs ≈ 40 ms on every launch).
//
// Input: the ESM build's metafile. `dist/entry.cjs` holds the entry `dist/mewcode.js` and what it
// imports statically (argument parsing: all `--version`, `--help` and `audit verify` need),
// `dist/program.cjs` the main chunk and the rest of its static imports, and every other chunk
// (loaded lazily) that can be a script is one of its own, `dist/chunks/<chunk>.cjs`.
// Each file is rewritten to a CommonJS function (esbuild transform); a script's value is the table
// { "chunks/x.js": function (exports, require, module, __mewcodeModuleUrl, __mewcodeImport) }.
// `dist/program.js` (generated) creates the program from the map of which script holds which file
// (bin/program-loader.js): a script runs the first time one of its modules is asked for, with its
// cache, and modules are instantiated on demand, so a module still runs once, in the order its
// importers ask for it.
//
// Each of those files is then replaced by a small ES module that re-exports the program's
// instance, so everything that stays an ES module (the terminal UI's chunk, lazily loaded tools,
// `mewcode/sdk` imported by a plugin) shares that one instance: one inversify, one tapable. The
// facade copies the exports once; esbuild's chunks export no binding that is reassigned later.
//
// `import()` cannot stay in a script: V8 drops the dynamic-import callback of a script compiled
// from a code cache (Node 20). So each `import(` call is renamed `__mewcodeImport(`, found with
// the TypeScript parser (a text search would also hit strings), and the loader resolves it.
import { transform } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** What `import(` becomes in the program: the loader's per-module resolver. */
const IMPORT_CALL_NAME = '__mewcodeImport';

/**
 * @param {import('esbuild').Metafile} metafile the main ESM build's
 * @param {{ dist: string, entry: string, mainEntryPoint: string }} where the CLI entry (`dist/mewcode.js`) and the source of the main chunk (`bin/main.ts`)
 */
export async function buildProgram(metafile, { dist, entry, mainEntryPoint }) {
  const outputs = metafile.outputs;
  const mainChunk = findMainChunk(outputs, mainEntryPoint);
  const entrySet = staticClosure(outputs, entry);
  const parts = [
    { script: 'entry.cjs', files: [...entrySet] },
    { script: 'program.cjs', files: [...staticClosure(outputs, mainChunk)].filter((file) => !entrySet.has(file)) },
  ];
  const converted = new Map();
  for (const { files } of parts) for (const file of files) converted.set(file, await convert(file));
  // Every other chunk is loaded lazily (configuration parsing, the tools' implementations, the
  // audit writer, the terminal UI): each gets a script of its own, loaded when first imported.
  const keptAsModule = (file, reason) => process.stderr.write(`program-bundle: ${file} stays an ES module, compiled at every load: ${reason}\n`);
  for (const [file, code] of await convertLazyChunks(outputs, dist, converted, keptAsModule)) {
    parts.push({ script: toKey(dist, file).replace(/\.js$/, '.cjs'), files: [file] });
    converted.set(file, code);
  }
  const scriptOf = {};
  for (const { script, files } of parts) {
    const factories = files.map((file) => `${JSON.stringify(toKey(dist, file))}:function(exports,require,module,__mewcodeModuleUrl,${IMPORT_CALL_NAME}){"use strict";\n${converted.get(file)}}`);
    for (const file of files) scriptOf[toKey(dist, file)] = script;
    writeFileSync(path.join(dist, script), `({${factories.join(',\n')}})\n`);
  }
  writeFileSync(path.join(dist, 'program.js'), `import{createProgram}from"./program-loader.js";\nexport const program=createProgram(${JSON.stringify(scriptOf)});\n`);
  for (const { files } of parts) {
    for (const file of files) {
      writeFileSync(file, facade(dist, file, outputs[file].exports));
      rmSync(`${file}.map`, { force: true }); // it maps the code that moved into the script
    }
  }
  return { mainKey: toKey(dist, mainChunk) };
}

/** A chunk's CommonJS function body (throws when it cannot be one). */
async function convert(file) {
  const source = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
  return toCommonJs(renameImportCalls(source, file), file);
}

/**
 * The chunks in dist/chunks/ outside the start-up scripts that can become scripts, with their
 * CommonJS. A chunk stays an ES module when it cannot be one (top-level await, `import.meta`
 * beyond `url`, an export name a facade cannot carry) or imports one that stays: a script's
 * `require` cannot load an ES module (Node 20).
 */
export async function convertLazyChunks(outputs, dist, alreadyConverted, keptAsModule = () => undefined) {
  const chunksDir = `${path.join(dist, 'chunks')}${path.sep}`;
  const candidates = new Map();
  for (const file of Object.keys(outputs)) {
    if (!file.endsWith('.js') || !path.normalize(file).startsWith(chunksDir) || alreadyConverted.has(file)) continue;
    const oddName = outputs[file].exports.find((name) => !isIdentifier(name));
    if (oddName !== undefined) {
      keptAsModule(file, `it exports ${JSON.stringify(oddName)}, which a facade cannot re-export`);
      continue;
    }
    try {
      candidates.set(file, await convert(file));
    } catch (error) {
      keptAsModule(file, error?.errors?.[0]?.text ?? String(error?.message ?? error).split('\n')[0]); // esbuild's own words first
    }
  }
  const blocking = (file) => outputs[file].imports.find((imported) => imported.kind === 'import-statement' && !imported.external && !alreadyConverted.has(imported.path) && !candidates.has(imported.path));
  for (let changed = true; changed; ) {
    changed = false;
    for (const file of candidates.keys()) {
      const imported = blocking(file);
      if (!imported) continue;
      keptAsModule(file, `it imports ${imported.path}, which stays an ES module`);
      candidates.delete(file);
      changed = true;
    }
  }
  return [...candidates].sort(([a], [b]) => a.localeCompare(b));
}

const isIdentifier = (name) => name === 'default' || /^[\p{ID_Start}$_][\p{ID_Continue}$]*$/u.test(name);

/** `file` and everything it imports statically (what loading it loads). */
function staticClosure(outputs, file, set = new Set()) {
  if (set.has(file)) return set;
  if (!outputs[file]) throw new Error(`program-bundle: ${file} is not an output of the build`);
  set.add(file);
  for (const imported of outputs[file].imports) if (imported.kind === 'import-statement' && !imported.external) staticClosure(outputs, imported.path, set);
  return set;
}

function findMainChunk(outputs, mainEntryPoint) {
  const found = Object.keys(outputs).find((file) => file.endsWith('.js') && outputs[file].entryPoint === mainEntryPoint);
  if (!found) throw new Error(`program-bundle: no chunk for ${mainEntryPoint}`);
  return found;
}

function toKey(dist, file) {
  return path.relative(dist, file).split(path.sep).join('/');
}

/** `import(x)` → `__mewcodeImport(x)`, only where the parser sees a dynamic import call. */
export function renameImportCalls(source, fileName) {
  if (source.includes(IMPORT_CALL_NAME)) throw new Error(`program-bundle: ${fileName} already uses the name ${IMPORT_CALL_NAME}`);
  const sourceFile = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const starts = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) starts.push(node.expression.getStart(sourceFile));
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  let result = source;
  for (const start of starts.sort((a, b) => b - a)) result = `${result.slice(0, start)}${IMPORT_CALL_NAME}${result.slice(start + 'import'.length)}`;
  return result;
}

async function toCommonJs(source, file) {
  const { code, warnings } = await transform(source, {
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    loader: 'js',
    minifyWhitespace: true,
    sourcefile: file,
    define: { 'import.meta.url': '__mewcodeModuleUrl' },
    logLevel: 'silent',
  });
  if (warnings.length > 0) throw new Error(`program-bundle: converting ${file}: ${warnings.map((w) => w.text).join('; ')}`);
  return code;
}

/** The ES module left in the chunk's place: the program's instance under the same names. */
function facade(dist, file, exportNames) {
  const program = path.relative(path.dirname(file), path.join(dist, 'program.js')).split(path.sep).join('/');
  const lines = [
    `import{program}from${JSON.stringify(program.startsWith('.') ? program : `./${program}`)};`,
    `const m=program.require(${JSON.stringify(toKey(dist, file))});`,
  ];
  const named = exportNames.filter((name) => name !== 'default');
  if (named.length > 0) lines.push(`export const{${named.map((name) => (isIdentifier(name) ? name : fail(file, name))).join(',')}}=m;`);
  if (exportNames.includes('default')) lines.push('export default m.default;');
  return `${lines.join('\n')}\n`;
}

function fail(file, name) {
  throw new Error(`program-bundle: ${file} exports ${JSON.stringify(name)}, which a facade cannot re-export`);
}
