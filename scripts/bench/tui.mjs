#!/usr/bin/env node
// `node scripts/bench/tui.mjs [--write]`: bytes and frames the terminal UI writes (see
// tui-scenarios.ts). esbuild compiles the scenarios with the UI in memory, as hook-table.mjs does;
// no build needed. Prints a Markdown section; --write splices it into BENCHMARKS.md.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './harness.mjs';
import { writeSection } from './report.mjs';

export async function benchTui() {
  const compiled = await build({
    entryPoints: [path.join(ROOT, 'scripts/bench/tui-scenarios.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'warning',
    // Ink loads react-devtools-core only under DEV=true; it is not installed: an empty stand-in.
    plugins: [{ name: 'no-devtools', setup: (b) => { b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'devtools', namespace: 'stub' })); b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {};' })); } }],
    define: { 'process.env.NODE_ENV': '"production"' },
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-bench-tui-'));
  try {
    const file = path.join(dir, 'tui-scenarios.mjs');
    writeFileSync(file, compiled.outputFiles[0].text);
    const { measureTui, COLUMNS, ROWS } = await import(pathToFileURL(file).href);
    return { results: await measureTui(), columns: COLUMNS, rows: ROWS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function tuiSection({ results, columns, rows }) {
  const screen = columns * rows;
  const fmt = (n) => Math.round(n).toLocaleString('en-US');
  const lines = [
    '## Terminal UI: bytes written per token and per message',
    '',
    'Reproduce: `npm run bench -- --suite tui` or, without a build, `node scripts/bench/tui.mjs` (`--write` rewrites this section). The real App renders through Ink',
    `into a ${columns}×${rows} fake terminal that counts every write; events go straight into the UI store (no model).`,
    `"Full redraws" counts Ink's clear-terminal path (ESC[2J), which would repaint and wipe the scrollback; a screen is ${fmt(screen)} cells.`,
    '',
    `Measured ${new Date().toISOString().slice(0, 10)}, Node ${process.version}.`,
    '',
    '| Scenario | Units | Bytes written | Bytes per unit | Writes (frames) | Largest write | Full redraws |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of results) {
    lines.push(`| ${r.name} | ${r.units} ${r.unit}${r.units === 1 ? '' : 's'} | ${fmt(r.bytes)} B${r.payloadBytes ? ` (payload ${fmt(r.payloadBytes)} B)` : ''} | ${fmt(r.bytes / r.units)} B | ${r.writes} | ${fmt(r.maxWrite)} B | ${r.clears} |`);
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const measured = await benchTui();
  const text = tuiSection(measured);
  process.stdout.write(`${text}\n`);
  if (process.argv.includes('--write')) process.stderr.write(`bench: BENCHMARKS.md (tui) ${writeSection(path.join(ROOT, 'BENCHMARKS.md'), text, 'tui')}\n`);
  if (measured.results.some((r) => r.clears > 0)) process.exitCode = 1;
}
