/**
 * No dead exports: every name a source module exports is used somewhere — by another module, a
 * test, a script, the docs, or its own module (an export used only inside is at least live code).
 * An export named once in the whole repository is code nobody runs and a reader must still
 * understand; sdk/ and types/ are public (`mewcode/sdk`), so a name kept there for plugins is named
 * by the docs, which this test reads too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SOURCE_FOLDERS = ['types', 'kernel', 'sdk', 'plugins', 'config', 'bin', 'api'];
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'coverage']);

function walk(dir: string, out: string[]): string[] {
  for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const file = dir === '.' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) walk(file, out);
    else if (/\.(ts|tsx|js|mjs|cjs|md|json)$/.test(entry.name)) out.push(file);
  }
  return out;
}

const EXPORT = /^export (?:declare )?(?:default )?(?:async )?(?:function\*?|const|let|var|class|abstract class|interface|type|enum) ([A-Za-z_$][\w$]*)/gm;

/** The exports of the source modules that appear once in the repository: at their declaration. */
export function deadExports(files: ReadonlyMap<string, string>, sources: readonly string[]): string[] {
  const counts = new Map<string, number>();
  const words = /[A-Za-z_$][\w$]*/g;
  for (const text of files.values()) for (const [word] of text.matchAll(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const dead: string[] = [];
  for (const file of sources) {
    for (const match of files.get(file)!.matchAll(EXPORT)) if (counts.get(match[1]!) === 1) dead.push(`${file}: ${match[1]}`);
  }
  return dead;
}

test('every exported name of the sources is used somewhere', () => {
  const all = walk('.', []);
  const files = new Map(all.map((file) => [file, readFileSync(path.join(ROOT, file), 'utf8')]));
  const sources = all.filter((file) => /\.(ts|tsx)$/.test(file) && (!file.includes('/') || SOURCE_FOLDERS.includes(file.split('/')[0]!)));
  expect(sources.length).toBeGreaterThan(300);
  expect(deadExports(files, sources)).toEqual([]);
});

test('a planted dead export is found; one used by a test or in its own module is not', () => {
  const files = new Map([
    ['sdk/probe.ts', 'export function plantedNeverUsed(): number { return 1; }\nexport const usedInside = 2;\nexport const usedByTest = usedInside;\n'],
    ['test/probe.test.ts', "import { usedByTest } from '../sdk/probe.js';\n"],
  ]);
  expect(deadExports(files, ['sdk/probe.ts'])).toEqual(['sdk/probe.ts: plantedNeverUsed']);
});
