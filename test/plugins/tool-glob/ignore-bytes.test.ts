/**
 * Ignore files as ripgrep reads them, in the walker too (the lister and grep engine used without
 * `rg`): a file is read up to its first line that is not valid UTF-8 (ripgrep stops there, so a
 * file whose first line is bad gives no rules at all); a line ripgrep cannot parse (an unclosed
 * `[`) is dropped; and rules are matched against a name's bytes: a byte that is not UTF-8 is one
 * character to `?` and `*`, and never the U+FFFD a lossy decoding shows for it. Held to `rg
 * --files` itself, with both of glob's listers and both grep engines.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { GrepTool } from '../../../plugins/tool-grep/grep-tool.js';
import { displayName } from '../../../sdk/search-common/display-name.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from '../tool-grep/helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const describeWithRipgrep = RG_PATH ? describe : (): void => undefined;
const FLAGS = ['--no-config', '--hidden', '--glob=!.*/', '--no-require-git', '--no-ignore-global', '--no-ignore-exclude'];

let root: string;
beforeAll(() => {
  root = makeTree({}, 'mewcode-ignbytes-');
  const put = (...parts: (string | number[])[]): ((content: Buffer | string) => void) => {
    const name = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));
    return (content) => writeFileSync(Buffer.concat([Buffer.from(`${root}/`), name]), content);
  };
  for (const dir of ['nu', 'nu2', 'odd', 'half', 'q', 'fffd']) mkdirSync(`${root}/${dir}`);
  put('nu/.gitignore')(Buffer.from([0xff, 0x2e, 0x74, 0x78, 0x74, 0x0a, ...Buffer.from('ok.txt\n')]));
  put('nu/', [0xff], '.txt')('needle\n');
  put('nu/', [0xfe], '.txt')('needle\n');
  put('nu/ok.txt')('needle\n');
  put('nu2/.gitignore')(Buffer.concat([Buffer.from('*.txt\n!'), Buffer.from([0xfe]), Buffer.from('*\n')]));
  put('nu2/', [0xfe], '.txt')('needle\n');
  put('nu2/', [0xfd], '.txt')('needle\n');
  put('odd/.gitignore')('[\nlater.txt\n');
  put('odd/[')('needle\n');
  put('odd/later.txt')('needle\n');
  put('half/.gitignore')(Buffer.concat([Buffer.from('one.txt\n'), Buffer.from([0xff]), Buffer.from('\ntwo.txt\n')]));
  put('half/one.txt')('needle\n');
  put('half/two.txt')('needle\n');
  put('q/.gitignore')('?.txt\n');
  put('q/', [0xff], '.txt')('needle\n');
  put('q/ab.txt')('needle\n');
  put('fffd/.gitignore')('\uFFFD.txt\n');
  put('fffd/', [0xff], '.txt')('needle\n');
  put('fffd/\uFFFD.txt')('needle\n');
});
afterAll(() => removeTree(root));

function rgFiles(): string[] {
  const result = spawnSync(RG_PATH!, [...FLAGS, '--files', '--null', '--', '.'], { cwd: root, encoding: 'buffer' });
  const names: string[] = [];
  let at = 0;
  while (at < result.stdout.length) {
    const nul = result.stdout.indexOf(0, at);
    const name = result.stdout.subarray(at + 2, nul); // `./`
    names.push(displayName(name.toString('utf8'), name));
    at = nul + 1;
  }
  return names.filter((n) => !n.endsWith('.gitignore')).sort();
}

describeWithRipgrep('ignore files with bytes that are not UTF-8 or lines ripgrep refuses', () => {
  test('the reference: what rg itself does', () => {
    // nu: first line bad, no rules; nu2: `*.txt` kept, the bad `!` line and after dropped; half: one.txt
    // ignored, not two.txt; odd: `[` dropped, later.txt ignored; q: `?` matches the byte 0xff; fffd: a
    // U+FFFD rule does not match the byte 0xff.
    expect(rgFiles()).toEqual(['fffd/\\xff.txt', 'half/two.txt', 'nu/\\xfe.txt', 'nu/\\xff.txt', 'nu/ok.txt', 'odd/[', 'q/ab.txt']);
  });

  test.each(['ripgrep', 'walker'] as const)('glob (%s lister) lists what rg --files lists', async (engine) => {
    const result = await new GlobTool(testLimits(root), { engine }).execute({ pattern: '**/*' }, toolContext(root));
    expect(result.content.split('\n').filter((n) => !n.endsWith('.gitignore')).sort()).toEqual(rgFiles());
  });

  test.each(['ripgrep', 're2js'] as const)('grep (%s engine) searches what rg --files lists', async (engine) => {
    const result = await new GrepTool(testLimits(root), { engine }).execute({ pattern: 'needle', output_mode: 'files_with_matches' }, toolContext(root));
    expect(result.content.split('\n').sort()).toEqual(rgFiles());
  });
});
