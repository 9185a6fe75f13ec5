/**
 * dependency-cruiser (./boundaries.test.ts) judges an import by its specifier; an `import()` of a
 * computed specifier (`import(`../plugins/${name}/index.js`)`, `import('../plugins/' + x)`) or a
 * `require` made with createRequire and called with one has no specifier it can read, so such a
 * load would pass every boundary unseen. Each load the sources compute is named here with its
 * reason; any other one fails this test.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['types', 'kernel', 'sdk', 'plugins', 'config', 'bin', 'api'];

/** file → why its computed load is not a way around the boundaries. */
const COMPUTED_LOADS: Record<string, string> = {
  'kernel/external-plugins.ts': 'loads the plugins the user configured (a file resolved from a package name or path in the configuration), which are not part of this source tree',
  'types/lazy-builtin.ts': 'requires a `node:` built-in at its first use; every caller passes a literal `node:` specifier',
};

function sourceFiles(): string[] {
  const out = readdirSync(ROOT).filter((name) => /\.(ts|tsx)$/.test(name));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const file = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(file);
      else if (/\.(ts|tsx|js|mjs|cjs)$/.test(entry.name)) out.push(file);
    }
  };
  FOLDERS.forEach(walk);
  return out;
}

/** The computed loads of one module: `import(x)` and `req(x)` where `req` came from createRequire, x not a plain string. */
export function computedLoads(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const requires = new Set(['require']);
  const found: string[] = [];
  const literal = (node: ts.Expression | undefined): boolean => node !== undefined && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node));
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer && ts.isCallExpression(node.initializer) && node.initializer.expression.getText(source) === 'createRequire') {
      requires.add(node.name.text);
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const loads = callee.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(callee) && requires.has(callee.text)) || (ts.isCallExpression(callee) && callee.expression.getText(source) === 'createRequire');
      if (loads && !literal(node.arguments[0])) {
        found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}: ${node.getText(source).slice(0, 80)}`);
      }
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

test('no module loads a computed specifier, except the named ones', () => {
  const files = sourceFiles();
  expect(files).toEqual(expect.arrayContaining(['index.ts', 'entry.ts', 'kernel/kernel.ts']));
  const found = files.flatMap((file) => computedLoads(file, readFileSync(path.join(ROOT, file), 'utf8')));
  expect(found.filter((load) => !(load.split(':')[0]! in COMPUTED_LOADS))).toEqual([]);
  // An exception that no longer computes a load is dropped from the list.
  for (const file of Object.keys(COMPUTED_LOADS)) expect(found.some((load) => load.startsWith(`${file}:`))).toBe(true);
});

test.each([
  ['kernel/probe.ts', 'export const load = (name: string) => import(`../plugins/${name}/index.js`);'],
  ['kernel/probe.ts', "export const load = (x: string) => import('../plugins/' + x);"],
  ['kernel/probe.ts', 'const spec = "../sdk/index.js"; export const load = () => import(spec);'],
  ['sdk/probe.ts', "import { createRequire } from 'node:module'; const req = createRequire(import.meta.url); export const load = (x: string) => req(x);"],
  ['sdk/probe.ts', "import { createRequire } from 'node:module'; export const load = (x: string) => createRequire(import.meta.url)(x);"],
])('a planted computed load is found: %s %s', (file, text) => {
  expect(computedLoads(file, text)).toHaveLength(1);
});

test.each([
  ['kernel/probe.ts', "export const load = () => import('../types/index.js');"],
  ['kernel/probe.ts', 'export const load = () => import(`../types/index.js`);'],
])('a literal load is not reported: %s %s', (file, text) => {
  expect(computedLoads(file, text)).toEqual([]);
});
