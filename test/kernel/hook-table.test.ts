/**
 * docs/plugin-contract.md's hook table is generated from the one hook catalogue (types/hook-catalogue.ts)
 * by renderHookTable (kernel/hook-table.ts); this keeps the document true when the catalogue changes.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderHookTable } from '../../kernel/hook-table.js';
import { HOOK_CATALOGUE } from '../../types/hook-catalogue.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const START = '<!-- hook-table:start -->';
const END = '<!-- hook-table:end -->';
const REGENERATE = 'node scripts/hook-table.mjs';

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1;
}

/** The text between the markers, without the line breaks that frame it. */
function documentedTable(): string {
  const doc = readFileSync(path.join(REPO, 'docs/plugin-contract.md'), 'utf8');
  if (occurrences(doc, START) !== 1 || occurrences(doc, END) !== 1 || doc.indexOf(START) > doc.indexOf(END)) {
    throw new Error(`docs/plugin-contract.md must hold exactly one "${START}" followed by one "${END}" (the generated hook table goes between them; fill it with \`${REGENERATE}\`)`);
  }
  const between = doc.slice(doc.indexOf(START) + START.length, doc.indexOf(END));
  if (!between.startsWith('\n') || !between.endsWith('\n')) {
    throw new Error(`the hook-table markers in docs/plugin-contract.md must be on lines of their own; run \`${REGENERATE}\``);
  }
  return between.slice(1, -1);
}

test('the hook table in docs/plugin-contract.md is exactly renderHookTable() (regenerate with `node scripts/hook-table.mjs`)', () => {
  const documented = documentedTable();
  const expected = renderHookTable();
  if (documented !== expected) {
    const have = documented.split('\n');
    const want = expected.split('\n');
    const line = want.findIndex((row, i) => have[i] !== row);
    const at = line < 0 ? have.length : line;
    throw new Error(
      `docs/plugin-contract.md's hook table no longer matches the hook catalogue (types/hook-catalogue.ts).\n` +
        `Regenerate it with:  ${REGENERATE}   (from the repository root; no build needed)\n` +
        `First difference at table row ${at + 1}:\n  documented: ${have[at] ?? '(missing)'}\n  catalogue:  ${want[at] ?? '(none)'}`,
    );
  }
  expect(documented).toBe(expected);
});

test('the table has one row per catalogue hook, in catalogue order', () => {
  const names = renderHookTable()
    .split('\n')
    .slice(2)
    .map((row) => row.split(' | ')[0]?.replace(/^\| /, ''));
  expect(names).toEqual(Object.keys(HOOK_CATALOGUE));
});

test(`\`${REGENERATE} --check\` agrees (the documented command works)`, () => {
  expect(() => execFileSync(process.execPath, ['scripts/hook-table.mjs', '--check'], { cwd: REPO, stdio: 'pipe' })).not.toThrow();
});
