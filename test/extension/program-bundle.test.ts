// The build's start-up program (scripts/program-bundle.mjs): a code-cached script cannot keep
// `import()` (V8 drops a cached script's dynamic-import callback), so each dynamic import call is
// renamed for the loader to resolve. Only calls are renamed: the word in text, regular
// expressions, property names or comments stays, since a renamed string would change what the
// program says or matches.
// @ts-expect-error a build script without declarations
import { renameImportCalls } from '../../scripts/program-bundle.mjs';

const rename = renameImportCalls as (source: string, fileName: string) => string;

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
