#!/usr/bin/env node
// What one more ES module file costs at start-up, as a reference for reading the chunk count of
// MewCode's start-up path (each esbuild chunk is one such file): importing N tiny modules
// against importing one, each in a fresh `node` process, interleaved.
//
//   node scripts/bench/module-files.mjs [--files 20] [--runs 15]
//
// It also prints how many files the built CLI's entry and its main chunk load statically.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// The start-up path in the built bundle: the entry (all `--version` needs) and the main chunk
// (a real run), each with the chunks it imports statically.
const DIST = path.join(ROOT, 'dist');
const mainChunk = existsSync(path.join(DIST, 'chunks')) ? readdirSync(path.join(DIST, 'chunks')).find((file) => /^main-.*\.js$/.test(file)) : undefined;
for (const entry of ['mewcode.js', ...(mainChunk ? [`chunks/${mainChunk}`] : [])]) {
  if (!existsSync(path.join(DIST, entry))) continue;
  const seen = new Set([entry]);
  const queue = [entry];
  let bytes = 0;
  while (queue.length > 0) {
    const file = queue.shift();
    const text = readFileSync(path.join(DIST, file), 'utf8');
    bytes += text.length;
    for (const [, spec] of [...text.matchAll(/\bfrom\s*["'](\.{1,2}\/[^"']+)["']|\bimport\s*["'](\.{1,2}\/[^"']+)["']/g)].map((m) => [m[0], m[1] ?? m[2]])) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  process.stdout.write(`dist/${entry} and its static imports: ${seen.size} files, ${(bytes / 1024).toFixed(0)} KiB\n`);
}
