/**
 * A `path` reached through a symlink is searched (its target lies in the project), and results
 * name the files by the path given, as ripgrep does — not by the link's target.
 */
import { spawnSync } from 'node:child_process';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;

let root: string;
beforeAll(() => {
  root = makeTree({ 'real/a.ts': 'needle a\n', 'real/sub/b.ts': 'needle b\n', lnk: { link: 'real' }, 'flink.ts': { link: 'real/a.ts' } }, 'mewcode-given-');
});
afterAll(() => removeTree(root));

function rg(args: string[], start: string): string[] {
  const result = spawnSync(RG_PATH!, ['--no-config', '--with-filename', '--sort=path', ...args, '--', start], { cwd: root, encoding: 'utf8' });
  return result.stdout.split('\n').filter((l) => l !== '');
}

describeWithRipgrep('a path given through a symlink', () => {
  test.each(['ripgrep', 're2js'] as GrepEngine[])('%s engine: results are named under the path given', async (engine) => {
    for (const start of ['lnk', 'lnk/', 'flink.ts', 'lnk/sub']) {
      const reference = rg(['--count', '-e', 'needle'], start).map((l) => l.replace(/^lnk\/\//, 'lnk/'));
      const result = await new GrepTool(testLimits(root), { engine }).execute({ pattern: 'needle', output_mode: 'count', path: start }, toolContext(root));
      expect([start, result.content.split('\n')]).toEqual([start, reference]);
    }
  });

  test('glob lists under the path given', async () => {
    const result = await new GlobTool(testLimits(root)).execute({ pattern: '**/*.ts', path: 'lnk' }, toolContext(root));
    expect(result.content.split('\n').sort()).toEqual(['lnk/a.ts', 'lnk/sub/b.ts']);
  });
});
