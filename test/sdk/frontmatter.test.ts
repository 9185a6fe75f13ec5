/**
 * The shared frontmatter reader: strict YAML first; for what strict YAML rejects, the line reader
 * Claude Code's leniency calls for (values spanning lines, `<example>` blocks, quoted values,
 * lists); an error naming the line only where even that cannot read the frontmatter. Real agent
 * files from Anthropic's official plugins (test/fixtures/claude-agents) are the main cases.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { MAX_FRONTMATTER_CHARS, readFrontmatter, type Frontmatter } from '../../sdk/frontmatter.js';

const FIXTURES = path.resolve('test/fixtures/claude-agents');
const fixture = (name: string): string => readFileSync(path.join(FIXTURES, name), 'utf8');

function ok(result: Frontmatter): Extract<Frontmatter, { ok: true }> {
  if (!result.ok) throw new Error(`expected a readable frontmatter, got line ${result.line}: ${result.message}`);
  return result;
}

describe('real agent files strict YAML rejects', () => {
  test.each(['agent-creator.md', 'code-simplifier.md', 'conversation-analyzer.md', 'silent-failure-hunter.md'])('%s: strict YAML rejects it, the reader reads it', async (name) => {
    const text = fixture(name);
    const yaml = text.split('\n---\n')[0]!.slice('---\n'.length);
    expect(() => parse(yaml)).toThrow();
    const read = ok(await readFrontmatter(text));
    expect(read.lenient).toBe(true);
    expect(read.data.name).toBe(name.replace(/\.md$/, ''));
    expect(read.body.trim()).toMatch(/^You are/);
  });

  test('the description runs to the next key: every <example> block, its Context:/user:/assistant: lines included', async () => {
    const read = ok(await readFrontmatter(fixture('agent-creator.md')));
    const description = read.data.description as string;
    expect(description).toMatch(/^Use this agent when the user asks to "create an agent"/);
    expect(description.match(/<example>/g)).toHaveLength(3);
    expect(description).toContain('user: "Add an agent to my plugin that validates configurations"');
    expect(description.endsWith('</example>')).toBe(true);
    // The keys after the examples are keys again; the example lines are not.
    expect(read.data).toMatchObject({ model: 'sonnet', color: 'magenta', tools: ['Write', 'Read'] });
    expect(Object.keys(read.data).sort()).toEqual(['color', 'description', 'model', 'name', 'tools']);
    expect(read.keyLines).toMatchObject({ name: 2, description: 3, model: 32, tools: 34 });
  });

  test('a description on one line with an unquoted ": " and a description whose lines start in column 0', async () => {
    const analyzer = ok(await readFrontmatter(fixture('conversation-analyzer.md')));
    expect(analyzer.data.description).toMatch(/^Use this agent when analyzing conversation transcripts .*Examples: <example>Context: /);
    expect(analyzer.data).toMatchObject({ model: 'inherit', color: 'yellow', tools: ['Read', 'Grep'] });
    const simplifier = ok(await readFrontmatter(fixture('code-simplifier.md')));
    expect((simplifier.data.description as string).split('\n').length).toBeGreaterThan(25);
    expect(simplifier.data.model).toBe('opus');
  });
});

describe('the line reader', () => {
  test('an unquoted ": " in a value; the keys after it are read as YAML', async () => {
    const read = ok(await readFrontmatter('---\nname: fixer\ndescription: Use this agent when: the build breaks\ntools: Read, Grep\nmodel: "sonnet"\n---\nbody\n'));
    expect(read.data).toEqual({ name: 'fixer', description: 'Use this agent when: the build breaks', tools: 'Read, Grep', model: 'sonnet' });
    expect(read.body).toBe('body\n');
    expect(read.bodyLine).toBe(7);
  });

  test('quoted values, [a, b] and - item lists, also where an item is not YAML', async () => {
    const read = ok(await readFrontmatter('---\ndescription: "Says: "hi" twice"\ntools: [Read, Grep]\nallowed-tools:\n  - Bash(git: *)\n  - "Read"\nmodel: \'opus\'\n---\n'));
    expect(read.data).toEqual({ description: 'Says: "hi" twice', tools: ['Read', 'Grep'], 'allowed-tools': ['Bash(git: *)', 'Read'], model: 'opus' });
  });

  test('untagged example lines (a word and a colon that is no definition key) continue a value that is not YAML', async () => {
    const read = ok(await readFrontmatter('---\nname: helper\ndescription: Use when: tests fail\nExamples:\nuser: "fix it"\nassistant: "on it"\ncolor: blue\n---\n'));
    expect(read.data).toEqual({ name: 'helper', description: 'Use when: tests fail\nExamples:\nuser: "fix it"\nassistant: "on it"', color: 'blue' });
  });

  test('an unknown key after a value that is YAML is a key of its own', async () => {
    const read = ok(await readFrontmatter('---\nname: x\nowner: team-a\ndescription: Use when: y\n---\n'));
    expect(read.data).toEqual({ name: 'x', owner: 'team-a', description: 'Use when: y' });
  });

  test('a tag that never closes does not swallow the keys after it', async () => {
    const read = ok(await readFrontmatter('---\ndescription: Prints <b>bold: text\nmodel: opus\n---\n'));
    expect(read.data).toEqual({ description: 'Prints <b>bold: text', model: 'opus' });
  });

  test('a nested mapping and a block scalar next to a value that is not YAML keep their YAML meaning', async () => {
    const read = ok(await readFrontmatter('---\ndescription: Use when: x\nmetadata:\n  owner: a\n  tags: [b]\nwhen_to_use: |\n  line one\n  line two\n---\n'));
    expect(read.data).toEqual({ description: 'Use when: x', metadata: { owner: 'a', tags: ['b'] }, when_to_use: 'line one\nline two\n' });
  });

  test('valid YAML is read as YAML (not lenient), CRLF and a BOM included', async () => {
    const read = ok(await readFrontmatter('\ufeff---\r\nname: a\r\ndescription: >\r\n  folded\r\n  text\r\n---\r\nB\r\n'));
    expect(read).toMatchObject({ lenient: false, data: { name: 'a', description: 'folded text\n' }, body: 'B\n', keyLines: { name: 2, description: 3 } });
  });

  test('no frontmatter: all body; an empty frontmatter: no keys', async () => {
    expect(ok(await readFrontmatter('# Title\n\ntext'))).toMatchObject({ hasFrontmatter: false, data: {}, body: '# Title\n\ntext' });
    expect(ok(await readFrontmatter('---\n---\nbody'))).toMatchObject({ hasFrontmatter: true, data: {}, body: 'body' });
  });
});

describe('what even the line reader cannot read: an error naming the file line', () => {
  test.each([
    ['text before the first key', '---\n# notes\n<<<<<<< HEAD\nname: x\n---\n', 3, /"<<<<<<< HEAD" is not a "key: value" line/],
    ['a key given twice', '---\nname: a\ndescription: Use when: x\nname: b\n---\n', 4, /name is given twice \(lines 2 and 4\)/],
    ['a frontmatter that never closes', '---\nname: a\ndescription: b\n', 1, /no line closes it/],
    ['a list, not a mapping', '---\n- a\n- b\n---\n', 2, /must be a mapping/],
  ])('%s', async (_what, text, line, message) => {
    const read = await readFrontmatter(text);
    expect(read).toMatchObject({ ok: false, line });
    if (!read.ok) expect(read.message).toMatch(message);
  });

  test(`a frontmatter over ${MAX_FRONTMATTER_CHARS} characters is refused before YAML reads it; one of exactly that size is read`, async () => {
    const head = 'name: big\ndescription: ';
    const exact = `---\n${head}${'x'.repeat(MAX_FRONTMATTER_CHARS - head.length - 1)}\n---\nbody`;
    expect(ok(await readFrontmatter(exact)).data.name).toBe('big');
    const over = `---\n${head}${'x'.repeat(MAX_FRONTMATTER_CHARS - head.length)}\n---\nbody`;
    const read = await readFrontmatter(over);
    expect(read).toMatchObject({ ok: false, line: 2 });
    if (!read.ok) expect(read.message).toMatch(new RegExp(`^the frontmatter is ${MAX_FRONTMATTER_CHARS + 1} characters, over the ${MAX_FRONTMATTER_CHARS} read`));
  });

  test('YAML that is valid but hostile (an alias bomb) is refused, never read line by line', async () => {
    const bomb = ['a: &a [x,x,x,x,x,x,x,x,x,x]', ...['b', 'c', 'd', 'e', 'f'].map((key, i) => `${key}: &${key} [${Array(10).fill(`*${'abcde'[i]}`).join(',')}]`)].join('\n');
    const read = await readFrontmatter(`---\nname: bomb\n${bomb}\n---\n`);
    expect(read).toMatchObject({ ok: false, line: 2 });
    if (!read.ok) expect(read.message).toMatch(/^invalid YAML in the frontmatter: Excessive alias count/);
  });
});
