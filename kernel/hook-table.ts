/** docs/plugin-contract.md's hook table, rendered from the catalogue (a test keeps the document true). */
import { HOOK_CATALOGUE, type HookSpec } from '../types/hook-catalogue.js';

const FAILURE_TEXT: Record<HookSpec['failure'], string> = {
  skip: 'skipped',
  'keep-value': 'value kept',
  deny: '**deny** (fail closed)',
  withhold: '**output withheld** (fail closed)',
  refuse: '**not sent** (fail closed)',
};

/** A table cell: `|` would end the cell (also inside backticks, in GitHub's markdown), so it is escaped. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function renderHookTable(): string {
  const rows = Object.entries(HOOK_CATALOGUE).map(([name, spec]: [string, HookSpec]) =>
    `| ${[name, `${spec.class}(${spec.args.join(', ')})`, spec.fires, FAILURE_TEXT[spec.failure], spec.doc].map(cell).join(' | ')} |`,
  );
  return ['| hook | tapable class (arguments) | fires | a throwing tap | what for |', '|---|---|---|---|---|', ...rows].join('\n');
}
