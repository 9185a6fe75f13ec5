/**
 * Claude Code's Grep fields: `type` (ripgrep's --type), `head_limit` and `offset` (a window over
 * the entries, `| tail -n +N | head -n M`) give what rg gives, in both engines (`multiline`:
 * multiline.test.ts); any field grep does not know is an input error naming the field, never
 * silently ignored.
 */
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, rgLines, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;
const FLAGS = ['--no-config', '--hidden', '--glob=!.*/', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude', '--sort=path'];

let root: string;
beforeAll(() => {
  root = makeTree({
    'a.ts': 'needle ts\n',
    'b.py': 'needle py\nneedle again\n',
    'c.md': 'needle md\n',
    'lib/d.py': 'needle deep py\n',
    'lib/e.tsx': 'needle tsx\n',
    Makefile: 'needle make\n',
    'm.txt': 'foo\nbar\nneedle 1\nx\nneedle 2\nneedle 3\n',
  }, 'mewcode-ccfields-');
});
afterAll(() => removeTree(root));

const rg = (args: string[]): string[] => rgLines(root, FLAGS, args);

async function grep(engine: GrepEngine, input: Record<string, unknown>) {
  const tool = new GrepTool(testLimits(root), { engine });
  const result = await tool.execute(input, toolContext(root));
  return { content: result.content, isError: result.isError === true };
}

const results = (content: string): string[] => content.split('\n\n')[0]!.split('\n');

describeWithRipgrep('Claude Code’s Grep fields', () => {
  const engines: GrepEngine[] = ['ripgrep', 're2js'];

  test.each(engines)('%s engine: type = rg --type', async (engine) => {
    for (const type of ['py', 'ts', 'make', 'md']) {
      const reference = rg(['--type', type, '-l', '-e', 'needle']);
      expect(reference.length).toBeGreaterThan(0);
      const result = await grep(engine, { pattern: 'needle', type, output_mode: 'files_with_matches' });
      expect([type, result.content.split('\n')]).toEqual([type, reference]);
    }
    const unknown = await grep(engine, { pattern: 'needle', type: 'nosuchtype' });
    expect(unknown).toEqual({ isError: true, content: expect.stringMatching(/unknown file type "nosuchtype" in "type"/) });
  });

  test.each(engines)('%s engine: head_limit and offset page through files and count entries', async (engine) => {
    const all = rg(['-l', '-e', 'needle']);
    const counts = rg(['-c', '-e', 'needle']);
    expect(all.length).toBe(7);
    const first = await grep(engine, { pattern: 'needle', output_mode: 'files_with_matches', head_limit: 1 });
    expect(results(first.content)).toEqual(all.slice(0, 1));
    expect(first.content).toMatch(/\[showing entries 1–1 of 7 .*pass offset 1 for the next ones\]/);
    const page = await grep(engine, { pattern: 'needle', output_mode: 'files_with_matches', head_limit: 2, offset: 3 });
    expect(results(page.content)).toEqual(all.slice(3, 5));
    const tail = await grep(engine, { pattern: 'needle', output_mode: 'count', offset: 5 });
    expect(results(tail.content)).toEqual(counts.slice(5).map((l) => l));
  });

  test.each(engines)('%s engine: in content mode the window is over output lines, as `| head`', async (engine) => {
    const lines = rg(['-n', '--with-filename', '--no-heading', '-C', '1', '-e', 'needle']).map((l) => (l === '--' ? l : l.replace(/^(.*?)[:-](\d+)([:-])/, '$1:$2$3 ')));
    const all = await grep(engine, { pattern: 'needle', context: 1 });
    expect(all.content.split('\n')).toEqual(lines);
    const window = await grep(engine, { pattern: 'needle', context: 1, offset: 4, head_limit: 5 });
    expect(results(window.content)).toEqual(lines.slice(4, 9));
    expect(window.content).toMatch(/pass offset 9 for the next ones/);
  });

  test.each(engines)('%s engine: unknown fields are errors naming them', async (engine) => {
    expect(await grep(engine, { pattern: 'needle', include: '*.py' })).toEqual({ isError: true, content: expect.stringMatching(/unknown field "include"/) });
    expect((await grep(engine, { pattern: 'needle', multiline: false, '-n': true, '-i': true })).isError).toBe(false);
  });
});
