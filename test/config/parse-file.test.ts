import { describe, expect, it } from '@jest/globals';
import { parseConfigText } from '../../config/parse-file.js';
import { toPlain } from '../../config/located.js';

const F = '/abs/.mewcode.yaml';

describe('parseConfigText', () => {
  it('ignores a byte-order mark without shifting columns', () => {
    const parsed = parseConfigText(F, '\uFEFFa: 1\n');
    expect(parsed.error).toBeUndefined();
    expect(parsed.root.entries.get('a')?.pos).toEqual({ file: F, line: 1, col: 4 });
  });

  it('treats a lone document marker as an empty configuration', () => {
    const parsed = parseConfigText(F, '---\n# nothing\n');
    expect(parsed.error).toBeUndefined();
    expect(parsed.root.entries.size).toBe(0);
  });

  it('rejects several documents in one file', () => {
    expect(parseConfigText(F, 'a: 1\n---\nb: 2\n').error).toBe(
      `config: ${F}:2:1: Source contains multiple documents; please use YAML.parseAllDocuments()`,
    );
  });

  it('reports a scalar top level', () => {
    expect(parseConfigText(F, '\n  hello\n').error).toBe(
      `config: ${F}:2:3: the top level must be a mapping of section names to values, found a single value`,
    );
  });

  it('keeps parser warnings, located', () => {
    const parsed = parseConfigText(F, 'a: 1\nb: !custom x\n');
    expect(parsed.error).toBeUndefined();
    expect(parsed.warnings).toEqual([`config: ${F}:2:4: Unresolved tag: !custom`]);
  });

  it('stops a recursive alias', () => {
    const parsed = parseConfigText(F, 'a: &x\n  - *x\n');
    expect(parsed.error).toBe(`config: ${F}:2:3: an alias refers to a collection that contains it`);
    expect(parsed.root.entries.size).toBe(0);
  });

  it('stops an alias bomb', () => {
    const rows = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) rows.push(`a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
    const parsed = parseConfigText(F, `${rows.join('\n')}\n`);
    expect(parsed.error).toBe(`config: ${F}:1:1: too many alias expansions (more than 100000)`);
  });

  it('counts every node an alias expands to', () => {
    const big = `[${Array(1000).fill('1').join(', ')}]`;
    const aliases = Array(150).fill('*big').join(', ');
    const parsed = parseConfigText(F, `big: &big ${big}\ncopies: [${aliases}]\n`);
    expect(parsed.error).toBe(`config: ${F}:1:1: too many alias expansions (more than 100000)`);
    const fine = parseConfigText(F, `big: &big ${big}\ncopies: [*big, *big]\n`);
    expect(fine.error).toBeUndefined();
    expect((toPlain(fine.root) as { copies: number[][] }).copies[1]).toHaveLength(1000);
  });

  it('turns flow pairs and complex values into plain data', () => {
    const parsed = parseConfigText(F, 'list: [a: 1, b]\nn: 0x10\nq: "007"\nempty:\n');
    expect(toPlain(parsed.root)).toEqual({ list: [{ a: 1 }, 'b'], n: 16, q: '007', empty: null });
  });
});

describe('a key given twice in a JSON file (.mcp.json, plugin.json, settings.json)', () => {
  const J = '/abs/.mcp.json';
  const text = '{"mcpServers": {\n  "memory": {"command": "a"},\n  "everything": {"command": "b"},\n  "memory": {"command": "c", "args": ["x"]}\n}}\n';

  it('is read as JSON readers (and Claude Code) read it: the last one wins, in the first one\'s place, with one warning naming file:line and the key', () => {
    const parsed = parseConfigText(J, text);
    expect(parsed.error).toBeUndefined();
    expect(toPlain(parsed.root)).toEqual(JSON.parse(text));
    expect(Object.keys(toPlain(parsed.root.entries.get('mcpServers')!) as object)).toEqual(['memory', 'everything']);
    expect(parsed.warnings).toEqual([`config: ${J}:4:3: "memory" is given twice in this object (first at line 2); the last one is used, as JSON is read`]);
    expect(parsed.root.entries.get('mcpServers')!.kind === 'map' && (parsed.root.entries.get('mcpServers') as any).entries.get('memory').pos.line).toBe(4);
  });

  it('three times: one warning for each later one', () => {
    const parsed = parseConfigText(J, '{"a": 1, "a": 2,\n "a": 3}');
    expect(toPlain(parsed.root)).toEqual({ a: 3 });
    expect(parsed.warnings).toHaveLength(2);
  });

  it('YAML configuration keeps refusing it (a YAML mapping cannot hold a key twice)', () => {
    expect(parseConfigText(F, 'a: 1\na: 2\n').error).toMatch(/Map keys must be unique/);
  });
});

describe('parseConfigText on many keys', () => {
  const many = (n: number) => ['max_turns: 3', ...Array.from({ length: n }, (_, i) => `k${i}: ${'v'.repeat(40)}`)].join('\n') + '\n';

  it('parses 20,000 keys (a file near the size cap)', () => {
    const text = many(20_000);
    expect(text.length).toBeLessThanOrEqual(1024 * 1024);
    // The duplicate-key check of the yaml package compared every key with every other: 9 s here
    // (jest's time limit catches that; the speed itself is no test's business).
    const parsed = parseConfigText(F, text);
    expect(parsed.error).toBeUndefined();
    expect(parsed.root.entries.size).toBe(20_001);
  });

  it('still refuses a duplicate key, at the second one, in any mapping', () => {
    expect(parseConfigText(F, 'a: 1\nb: 2\na: 3\n').error).toBe(`config: ${F}:3:1: Map keys must be unique`);
    expect(parseConfigText(F, 'a:\n  x: 1\n  "x": 2\n').error).toBe(`config: ${F}:3:3: Map keys must be unique`);
    expect(parseConfigText(F, '{"a": {"b": 1, "b": 2}}').error).toBe(`config: ${F}:1:16: Map keys must be unique`);
    expect(parseConfigText(F, 'a: &k 1\nb: {x: 1, y: 2}\n').error).toBeUndefined();
  });
});
