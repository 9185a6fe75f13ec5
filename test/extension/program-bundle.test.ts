// The build's start-up program (scripts/program-bundle.mjs): a code-cached script cannot keep
// `import()` (V8 drops a cached script's dynamic-import callback), so each dynamic import call is
// renamed for the loader to resolve. Only calls are renamed: the word in text, regular
// expressions, property names or comments stays, since a renamed string would change what the
// program says or matches.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error a build script without declarations
import { convertLazyChunks, renameImportCalls } from '../../scripts/program-bundle.mjs';

type Output = { imports: { path: string; kind: string; external?: boolean }[]; exports: string[] };
const rename = renameImportCalls as (source: string, fileName: string) => string;
const convertLazy = convertLazyChunks as (outputs: Record<string, Output>, dist: string, already: Map<string, string>, keptAsModule?: (file: string, reason: string) => void) => Promise<[string, string][]>;

test('dynamic import calls are renamed, with any spacing and any argument', () => {
  const source = 'const a=await import("./chunk-A.js");const b=import (x);async function f(){return (await import(`./${y}.js`)).z}';
  expect(rename(source, 'chunk.js')).toBe(
    'const a=await __mewcodeImport("./chunk-A.js");const b=__mewcodeImport (x);async function f(){return (await __mewcodeImport(`./${y}.js`)).z}',
  );
});

test('the word elsewhere stays: strings, templates, regular expressions, property names, comments, import statements', () => {
  const source = [
    'import{a}from"./chunk-A.js";',
    'const s="do not import(x) here";',
    "const t=`import(${1})`;",
    'const r=/import\\(/g;',
    'const o={import(x){return x}};o.import(1);',
    '// import("./c.js")',
    'export{s,t,r,o};',
  ].join('\n');
  expect(rename(source, 'chunk.js')).toBe(source);
});

test('a file that already uses the loader name is refused (the rename would be ambiguous)', () => {
  expect(() => rename('const __mewcodeImport = 1;', 'odd.js')).toThrow('odd.js already uses the name __mewcodeImport');
});

describe('lazily loaded chunks', () => {
  test('each becomes a script unless it cannot be one or imports one that stays an ES module', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'mewcode-program-bundle-'));
    try {
      mkdirSync(path.join(dist, 'chunks'));
      const files: Record<string, [string, Output['imports'], string[]]> = {
        'chunks/plain.js': ['export const a = 1;', [], ['a']],
        'chunks/awaits.js': ['export const b = await Promise.resolve(2);', [], ['b']],
        'chunks/imports-awaits.js': ['import { b } from "./awaits.js"; export const c = b + 1;', [{ path: 'chunks/awaits.js', kind: 'import-statement' }], ['c']],
        'chunks/imports-awaits-lazily.js': ['export const d = () => import("./awaits.js");', [{ path: 'chunks/awaits.js', kind: 'dynamic-import' }], ['d']],
        'chunks/meta.js': ['export const e = import.meta.dirname;', [], ['e']],
        'chunks/imports-program.js': ['import { p } from "./in-program.js"; export const f = p;', [{ path: 'chunks/in-program.js', kind: 'import-statement' }, { path: 'node:fs', kind: 'import-statement', external: true }], ['f']],
        'entry.js': ['export const g = 1;', [], ['g']],
      };
      const outputs: Record<string, Output> = {};
      for (const [name, [source, imports, exportNames]] of Object.entries(files)) {
        writeFileSync(path.join(dist, name), source);
        outputs[path.join(dist, name)] = { imports: imports.map((entry) => ({ ...entry, path: entry.external ? entry.path : path.join(dist, entry.path) })), exports: exportNames };
      }
      const already = new Map([[path.join(dist, 'chunks/in-program.js'), '']]);
      const kept: Record<string, string> = {};
      const converted = await convertLazy(outputs, dist, already, (file, reason) => (kept[path.relative(dist, file)] = reason));
      expect(converted.map(([file]) => path.relative(dist, file)).sort()).toEqual(['chunks/imports-awaits-lazily.js', 'chunks/imports-program.js', 'chunks/plain.js']);
      // Each chunk left an ES module is named, with why.
      expect(Object.keys(kept).sort()).toEqual(['chunks/awaits.js', 'chunks/imports-awaits.js', 'chunks/meta.js']);
      expect(kept['chunks/awaits.js']).toMatch(/top-level await/i);
      expect(kept['chunks/imports-awaits.js']).toBe(`it imports ${path.join(dist, 'chunks/awaits.js')}, which stays an ES module`);
      // The body is CommonJS whose dynamic import goes through the loader.
      expect(converted.find(([file]) => file.endsWith('imports-awaits-lazily.js'))![1]).toContain('__mewcodeImport("./awaits.js")');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
