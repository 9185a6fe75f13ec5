#!/usr/bin/env node
// What one more ES module file costs at start-up, as a reference for reading the chunk count of
// MewCode's start-up path (each esbuild chunk is one such file): importing N tiny modules
// against importing one, each in a fresh `node` process, interleaved.
//
//   node scripts/bench/module-files.mjs [--files 20] [--runs 15]
//
// It also prints how many chunk files the start-up scripts (dist/entry.cjs, dist/program.cjs) hold.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({ options: { files: { type: 'string', default: '20' }, runs: { type: 'string', default: '15' } } });
const files = Number.parseInt(values.files, 10);
const runs = Number.parseInt(values.runs, 10);
if (!(files >= 1) || !(runs >= 3)) {
  process.stderr.write('usage: node scripts/bench/module-files.mjs [--files N ≥ 1] [--runs N ≥ 3]\n');
  process.exit(2);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-modules-'));
try {
  for (let i = 0; i < files; i++) writeFileSync(path.join(dir, `m${i}.js`), `export const v${i} = ${i};\n`);
  writeFileSync(path.join(dir, 'many.js'), `${Array.from({ length: files }, (_, i) => `import { v${i} } from './m${i}.js';`).join('\n')}\nexport const all = 1;\n`);
  writeFileSync(path.join(dir, 'one.js'), 'export const all = 1;\n');
  const time = (file) => Number(execFileSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(path.join(dir, file))}); process.stdout.write(String(performance.now() - t));`]).toString());
  const many = [];
  const one = [];
  for (let i = 0; i < runs; i++) {
    many.push(time('many.js'));
    one.push(time('one.js'));
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const perFile = (median(many) - median(one)) / files;
  process.stdout.write(`importing ${files} tiny modules: ${median(many).toFixed(2)} ms; one: ${median(one).toFixed(2)} ms; ≈ ${perFile.toFixed(2)} ms per extra module file (medians of ${runs})\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The start-up path in the built bundle: two code-cached scripts (scripts/program-bundle.mjs).
for (const name of ['entry.cjs', 'program.cjs']) {
  const script = path.join(ROOT, 'dist', name);
  if (!existsSync(script)) continue;
  const text = readFileSync(script, 'utf8');
  const modules = [...text.matchAll(/^(?:\(\{)?"([^"]+)":function\(exports,require,module,/gm)].length;
  const cache = existsSync(`${script}.cache`) ? `, code cache ${(statSync(`${script}.cache`).size / 1024).toFixed(0)} KiB` : ', no code cache';
  process.stdout.write(`start-up script dist/${name}: ${modules} former chunk files, ${(text.length / 1024).toFixed(0)} KiB${cache}\n`);
}
