/**
 * Byte-order marks, read as ripgrep reads them by default: a UTF-8 BOM is removed (`^needle`
 * matches on the first line), a UTF-16LE or UTF-16BE file with a BOM is transcoded (text, not
 * binary; a lone surrogate or a final odd byte is U+FFFD), UTF-16 without a BOM is binary (NUL
 * bytes), and so is a UTF-16 file holding a NUL character. Both engines give the same output,
 * and it equals `rg` itself.
 */
import { spawnSync } from 'node:child_process';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');

const BOM8 = Buffer.from([0xef, 0xbb, 0xbf]);
const utf16le = (text: string): Buffer => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const utf16be = (text: string): Buffer => {
  const bytes = Buffer.from(text, 'utf16le');
  bytes.swap16();
  return Buffer.concat([Buffer.from([0xfe, 0xff]), bytes]);
};
const TEXT = 'needle first\r\nsecond needle\nnaïve needle 😀\nlast\n';
// Long enough to cross the transcoder's reads, with characters of every width on the borders.
const LONG = Array.from({ length: 9000 }, (_, i) => `row ${i} ${i % 7 === 0 ? 'needle' : 'hay'} é😀ü`).join('\n');

let root: string;
beforeAll(() => {
  root = makeTree(
    {
      'short/u8-bom.txt': Buffer.concat([BOM8, Buffer.from('needle first\nsecond needle\n')]),
      'short/u8-bom-invalid.txt': Buffer.concat([BOM8, Buffer.from('caf'), Buffer.from([0xe9]), Buffer.from(' needle\n')]),
      'short/bom-only.txt': BOM8,
      // ripgrep removes one BOM; a second is text (shown, and `^needle` does not match after it).
      'short/u8-two-boms.txt': Buffer.concat([BOM8, BOM8, Buffer.from('needle twice marked\n')]),
      'short/u16le.txt': utf16le(TEXT),
      'short/u16be.txt': utf16be(TEXT),
      'long/u16le.txt': utf16le(LONG),
      'long/u16be.txt': utf16be(`${LONG}\n`),
      'short/u16-no-bom.txt': Buffer.from('needle without a BOM\n', 'utf16le'),
      'short/u16-nul.txt': utf16le('needle\0\n'),
      'short/u16-odd.txt': Buffer.concat([utf16le('needle odd\n'), Buffer.from([0x41])]),
      'short/u16be-odd.txt': Buffer.concat([utf16be('needle odd\n'), Buffer.from([0x41])]),
      'short/u16-surrogate.txt': Buffer.concat([utf16le('needle '), Buffer.from([0x00, 0xd8]), Buffer.from(' x\n', 'utf16le')]),
      'short/plain.txt': 'needle plain\n',
    },
    'mewcode-encodings-',
  );
});
afterAll(() => removeTree(root));

async function grep(engine: GrepEngine, input: Record<string, unknown>): Promise<string> {
  const tool = new GrepTool(testLimits(root), { engine });
  const result = await tool.execute(input, toolContext(root));
  expect(tool.lastRun?.engine).toBe(engine);
  return result.content;
}

/** `rg` with its default encoding handling, as `path:LINE: text` lines, or `path:COUNT`. */
function rg(args: string[], start = '.'): string[] {
  const result = spawnSync(RG_PATH!, ['--no-config', '--sort=path', ...args, '--', start], { cwd: root, encoding: 'utf8' });
  expect([0, 1]).toContain(result.status);
  return result.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.replace(/^\.\//, '').replace(/^(.*?:\d+):/, '$1: ').replace(/\r$/, '')); // grep shows a line without its \r\n
}

const PATTERNS = ['^needle', 'needle$', 'needle', 'na.ve|😀', '\\x{FFFD}', '^[a-z]+ odd', 'caf.', '^'];
const sorted = (lines: string[]): string[] => [...lines].sort();

test.each(['re2js', ...(RG_PATH ? ['ripgrep'] : [])] as GrepEngine[])('%s engine: a BOM is read as ripgrep reads it', async (engine) => {
  const first = await grep(engine, { pattern: '^needle', output_mode: 'files_with_matches' });
  const short = ['plain.txt', 'u16-odd.txt', 'u16-surrogate.txt', 'u16be-odd.txt', 'u16be.txt', 'u16le.txt', 'u8-bom.txt'].map((f) => `short/${f}`);
  expect(sorted(first.split('\n'))).toEqual(short);
  expect(await grep(engine, { pattern: 'naïve', output_mode: 'content', path: 'short' })).toBe('short/u16be.txt:3: naïve needle 😀\nshort/u16le.txt:3: naïve needle 😀');
  expect(await grep(engine, { pattern: 'odd', output_mode: 'content', path: 'short/u16-odd.txt', context: 1 })).toBe('short/u16-odd.txt:1: needle odd\nshort/u16-odd.txt:2- \uFFFD');
  expect(await grep(engine, { pattern: 'needle', output_mode: 'count', path: 'long' })).toBe('long/u16be.txt:1286\nlong/u16le.txt:1286');
});

// Only where rg is installed (MEWCODE_REQUIRE_RG=1 makes its absence an error above): nothing to compare with otherwise.
const testWithRipgrep = RG_PATH ? test : (): void => undefined;
testWithRipgrep('both engines equal rg itself (content and count)', async () => {
  for (const pattern of PATTERNS) {
    // content of the short files (the long ones pass the result limit), counts of all
    const content = rg(['--line-number', '--with-filename', '--no-heading', '-e', pattern], 'short');
    const counts = rg(['--count', '-e', pattern]);
    for (const engine of ['ripgrep', 're2js'] as GrepEngine[]) {
      const shown = await grep(engine, { pattern, output_mode: 'content', path: 'short' });
      const counted = await grep(engine, { pattern, output_mode: 'count' });
      const lines = (out: string): string[] => (out.startsWith('No matches') ? [] : sorted(out.split('\n')));
      expect([engine, pattern, lines(shown)]).toEqual([engine, pattern, sorted(content)]);
      expect([engine, pattern, lines(counted)]).toEqual([engine, pattern, sorted(counts)]);
    }
  }
});
