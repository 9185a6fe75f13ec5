// Regenerates the hook table in docs/plugin-contract.md from the hook catalogue (types/hook-catalogue.ts,
// rendered by kernel/hook-table.ts), between `<!-- hook-table:start -->` and `<!-- hook-table:end -->`.
//
//   node scripts/hook-table.mjs           rewrite the table in place
//   node scripts/hook-table.mjs --check   exit 1 when the table is out of date (changes nothing)
//
// No build needed: esbuild (already a devDependency, used by scripts/bundle.mjs) compiles
// kernel/hook-table.ts in memory; the catalogue imports only types, so nothing else is loaded.
// test/kernel/hook-table.test.ts fails when the table and the catalogue disagree.
import { build } from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const START = '<!-- hook-table:start -->';
export const END = '<!-- hook-table:end -->';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const doc = path.join(root, 'docs/plugin-contract.md');

const compiled = await build({
  entryPoints: [path.join(root, 'kernel/hook-table.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  write: false,
  logLevel: 'warning',
});
const { renderHookTable } = await import(`data:text/javascript;base64,${Buffer.from(compiled.outputFiles[0].text).toString('base64')}`);

const text = readFileSync(doc, 'utf8');
const start = text.indexOf(START);
const end = text.indexOf(END);
if (start < 0 || end < start || text.indexOf(START, start + 1) >= 0 || text.indexOf(END, end + 1) >= 0) {
  process.stderr.write(`hook-table: docs/plugin-contract.md must hold exactly one ${START} … ${END} pair, in that order\n`);
  process.exit(2);
}
const next = `${text.slice(0, start + START.length)}\n${renderHookTable()}\n${text.slice(end)}`;

if (process.argv.includes('--check')) {
  if (next !== text) {
    process.stderr.write('hook-table: docs/plugin-contract.md is out of date; run `node scripts/hook-table.mjs`\n');
    process.exit(1);
  }
} else if (next !== text) {
  writeFileSync(doc, next);
  process.stdout.write('hook-table: docs/plugin-contract.md updated\n');
} else {
  process.stdout.write('hook-table: docs/plugin-contract.md already up to date\n');
}
