// Start-up: V8 holds a source file with even one non-ASCII byte (a "—" in a comment) as a
// two-byte string, slower to decode and to scan; the build emits every file it loads as ASCII
// (scripts/bundle.mjs: no comments, esbuild escapes the rest). `npm test` builds first.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const DIST = path.join(process.cwd(), 'dist');

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'types' ? [] : codeFiles(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

function firstNonAscii(bytes: Buffer): number {
  return bytes.findIndex((byte) => byte > 0x7f);
}

test('every bundled code file is ASCII', () => {
  const files = codeFiles(DIST);
  // The model SDKs are in the bundle's chunks (the Anthropic SDK's version header names it).
  expect(files.some((f) => f.includes(`${path.sep}chunks${path.sep}`) && readFileSync(f, 'latin1').includes('anthropic-version'))).toBe(true);
  expect(files.some((f) => f.endsWith('mewcode.js'))).toBe(true);
  const offenders = files
    .map((file) => ({ file: path.relative(DIST, file), at: firstNonAscii(readFileSync(file)) }))
    .filter((f) => f.at >= 0)
    .map((f) => `${f.file} at byte ${f.at}`);
  expect(offenders).toEqual([]);
});

test('the check finds a non-ASCII byte', () => {
  expect(firstNonAscii(Buffer.from('// a — b\n'))).toBe(5);
  expect(firstNonAscii(Buffer.from('const a = "\\u2014";\n'))).toBe(-1);
});
