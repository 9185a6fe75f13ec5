// A settings, configuration or frontmatter text nesting deeper than MAX_NESTING_DEPTH is refused
// before any parser or walk recurses into it; exactly at the cap it is read as before.
import { MAX_NESTING_DEPTH, nestingTooDeep } from '../../config/nesting-depth.js';
import { parseConfigText } from '../../config/parse-file.js';
import { strictYaml } from '../../sdk/frontmatter-yaml.js';

const brackets = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const blockLists = (depth: number): string => Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}- `).join('\n') + 'x\n';
const blockMaps = (depth: number): string => Array.from({ length: depth }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n') + ' x\n';

test('JSON brackets: the cap is accepted, one more is refused with the line', () => {
  // `{"deny": …}` adds one level for the top mapping.
  const at = (depth: number): string => `{"permissions":{"deny":${brackets(depth - 2)}}}`;
  expect(nestingTooDeep(at(MAX_NESTING_DEPTH))).toBeUndefined();
  expect(nestingTooDeep(at(MAX_NESTING_DEPTH + 1))).toMatchObject({ line: 1 });
  const ok = parseConfigText('/p/.claude/settings.json', at(MAX_NESTING_DEPTH));
  expect(ok.error).toBeUndefined();
  const refused = parseConfigText('/p/.claude/settings.json', at(MAX_NESTING_DEPTH + 1));
  expect(refused.error).toContain(`/p/.claude/settings.json:1:1: nested more than ${MAX_NESTING_DEPTH} levels deep`);
  expect(refused.root.entries.size).toBe(0);
});

test('YAML block nesting (lists, compact lists, mappings) counts too; flow inside block adds up', () => {
  expect(nestingTooDeep(blockLists(MAX_NESTING_DEPTH))).toBeUndefined();
  expect(nestingTooDeep(blockLists(MAX_NESTING_DEPTH + 1))).toBeDefined();
  expect(nestingTooDeep(blockMaps(MAX_NESTING_DEPTH))).toBeUndefined();
  expect(nestingTooDeep(blockMaps(MAX_NESTING_DEPTH + 1))).toBeDefined();
  expect(nestingTooDeep(`${'- '.repeat(MAX_NESTING_DEPTH + 1)}x\n`)).toBeDefined();
  expect(nestingTooDeep(`x: ${brackets(MAX_NESTING_DEPTH - 1)}\n`)).toBeUndefined();
  expect(nestingTooDeep(`x: ${brackets(MAX_NESTING_DEPTH)}\n`)).toBeDefined();
  expect(parseConfigText('/p/.mewcode/settings.yaml', `x: ${brackets(100_000)}\n`).error).toContain('/p/.mewcode/settings.yaml:1:1: nested more than');
});

test('brackets in strings, comments and block scalars are text; a plain scalar with a quote does not hide brackets', () => {
  const deepText = '['.repeat(1000);
  expect(nestingTooDeep(`{"a": "${deepText}"}`)).toBeUndefined();
  expect(nestingTooDeep(`a: '${deepText}'\nb: 1 # ${deepText}\n`)).toBeUndefined();
  expect(nestingTooDeep(`description: |\n  ${deepText}\n  more\nname: x\n`)).toBeUndefined();
  expect(nestingTooDeep(`a: [it's, ${deepText}]`)).toBeDefined();
});

test('a frontmatter too deep, or an alias bomb, is refused without throwing', () => {
  expect(strictYaml(`name: a\nx: ${brackets(MAX_NESTING_DEPTH + 1)}\n`)).toMatchObject({ ok: false, syntax: false, message: expect.stringContaining(`more than ${MAX_NESTING_DEPTH} levels`) });
  expect(strictYaml(`name: a\nx: ${brackets(MAX_NESTING_DEPTH - 1)}\n`)).toMatchObject({ ok: true });
  const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let i = 1; i < 9; i++) lines.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(',')}]`);
  expect(strictYaml(lines.join('\n'))).toMatchObject({ ok: false });
  expect(parseConfigText('/p/.mewcode.yaml', lines.join('\n')).error).toBeDefined();
});
