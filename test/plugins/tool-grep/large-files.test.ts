/**
 * The fallback reads files in 16 MiB slices of whole lines: matches and context lines across a
 * slice boundary, and a single line longer than a slice, come out as if the file were read whole
 * (checked against a plain computation, and against ripgrep when it is installed).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { GrepTool } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, RG_PATH, testLimits, toolContext } from './helpers.js';

const SLICE = 16 * 1024 * 1024;
let root: string;
let lines: string[];

beforeAll(() => {
  root = makeTree({}, 'mewcode-large-');
  // ~17.5 MiB of 100-byte lines; "needle" just before, on and just after the first slice boundary
  const lineCount = Math.ceil((SLICE + 1_500_000) / 100);
  const boundaryLine = Math.floor(SLICE / 100); // 0-based index of the line crossing 16 MiB
  const marked = new Set([0, 5, boundaryLine - 3, boundaryLine - 1, boundaryLine, boundaryLine + 2, boundaryLine + 9, lineCount - 1]);
  lines = Array.from({ length: lineCount }, (_, i) => {
    const text = marked.has(i) ? `needle ${i}` : `line ${i}`;
    return text.padEnd(99, '.');
  });
  writeFileSync(path.join(root, 'big.txt'), lines.join('\n')); // no final newline
  writeFileSync(path.join(root, 'one-line.txt'), `${'x'.repeat(SLICE + 100)}needle\nafter\n`);
});
afterAll(() => removeTree(root));

function expected(context: number): string {
  const matches = lines.flatMap((l, i) => (l.startsWith('needle') ? [i + 1] : []));
  const shown = new Set<number>();
  for (const m of matches) for (let n = Math.max(1, m - context); n <= Math.min(lines.length, m + context); n++) shown.add(n);
  const out: string[] = [];
  let previous: number | undefined;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (context > 0 && previous !== undefined && n > previous + 1) out.push('--');
    out.push(`big.txt:${n}${matches.includes(n) ? ':' : '-'} ${lines[n - 1]}`);
    previous = n;
  }
  return out.join('\n');
}

test.each([0, 2, 4])('context %i across the slice boundary', async (context) => {
  const result = await new GrepTool(testLimits(root), { engine: 're2js' }).execute({ pattern: '^needle', path: 'big.txt', context }, toolContext(root));
  expect(result.content).toBe(expected(context));
  if (RG_PATH) {
    const viaRg = await new GrepTool(testLimits(root), { engine: 'ripgrep' }).execute({ pattern: '^needle', path: 'big.txt', context }, toolContext(root));
    expect(viaRg.content).toBe(result.content);
  }
});

test('a line longer than a slice', async () => {
  const result = await new GrepTool(testLimits(root), { engine: 're2js' }).execute({ pattern: 'needle|^after', path: 'one-line.txt' }, toolContext(root));
  expect(result.content).toBe(`one-line.txt:1: ${'x'.repeat(500)}… [line truncated]\none-line.txt:2: after\n\n[1 line cut at 500 characters; read the file with read_file to see it whole]`);
  const counts = await new GrepTool(testLimits(root), { engine: 're2js' }).execute({ pattern: 'needle', output_mode: 'count' }, toolContext(root));
  expect(counts.content).toBe('big.txt:8\none-line.txt:1');
});
