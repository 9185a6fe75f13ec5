/**
 * bin/ (the CLI) reaches plugins only through the plugin contract: it may import the default
 * plugin list, never a plugin's own modules. Otherwise a build that replaces a plugin would keep
 * the old plugin's commands or checks (they would be the CLI's, not the plugin's).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const BIN = path.resolve('bin');
const PLUGINS = path.resolve('plugins');
const ALLOWED = new Set([path.join(PLUGINS, 'default-set.js'), path.join(PLUGINS, 'default-set.ts')]);

/** Every module specifier of a source file: static imports and re-exports, dynamic import(), require(). */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g, /\brequire\s*\(\s*['"`]([^'"`]+)['"`]\s*\)/g];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

function pluginImports(dir: string): string[] {
  const bad: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !/\.(?:ts|js|mjs|cjs)$/.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), specifier);
      if ((target === PLUGINS || target.startsWith(`${PLUGINS}${path.sep}`)) && !ALLOWED.has(target)) bad.push(`${path.relative('.', file)} imports ${specifier}`);
    }
  }
  return bad;
}

test('no file in bin/ imports from plugins/ except the default plugin list', () => {
  expect(pluginImports(BIN)).toEqual([]);
});

test('the scan sees every form of import (a scan that finds nothing proves nothing)', () => {
  const source = [
    "import { a } from '../plugins/x/a.js';",
    "import type { B } from '../plugins/x/b.js';",
    "export { c } from '../plugins/x/c.js';",
    "import '../plugins/x/d.js';",
    "const { e } = await import('../plugins/x/e.js');",
    "const f = require('../plugins/x/f.js');",
    "import {\n  g,\n  h,\n} from '../plugins/x/g.js';",
  ].join('\n');
  expect(specifiers(source)).toEqual(expect.arrayContaining(['../plugins/x/a.js', '../plugins/x/b.js', '../plugins/x/c.js', '../plugins/x/d.js', '../plugins/x/e.js', '../plugins/x/f.js', '../plugins/x/g.js']));
});
