// The terminal UI's string-width, patched by the build (scripts/string-width-patch.mjs) so that its
// RGI emoji expression is built only when a cluster can be an RGI emoji: the widths must be those
// of the library as published, and text without emoji must never build the expression.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
// @ts-expect-error a build script without declarations
import { patchStringWidth } from '../../scripts/string-width-patch.mjs';

type StringWidth = (text: string, options?: { ambiguousIsNarrow?: boolean }) => number;
const patch = patchStringWidth as (source: string, file?: string) => string;

/** The copy the build bundles: Ink's (scripts/third-party-redirects.mjs `oneStringWidth`). */
const inkDir = path.resolve('node_modules/ink');
const original = createRequire(path.join(inkDir, 'package.json')).resolve('string-width');

const work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-string-width-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let loads = 0;

/** A fresh instance of the patched module, its imports pointed at the packages beside the original. */
async function loadPatched(): Promise<StringWidth> {
  const from = createRequire(original);
  const source = patch(readFileSync(original, 'utf8')).replace(/from '([^'.][^']*)'/g, (_, name: string) => `from ${JSON.stringify(pathToFileURL(from.resolve(name)).href)}`);
  mkdirSync(work, { recursive: true });
  const file = path.join(work, `string-width-${++loads}.mjs`);
  writeFileSync(file, source);
  return ((await import(pathToFileURL(file).href)) as { default: StringWidth }).default;
}

const SEQUENCES = [
  '😀', '👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇫🇷', '🇺🇸', '🏴󠁧󠁢󠁥󠁮󠁧󠁿', '1️⃣', '#️⃣', '*⃣', '©️', '©', '↔️', '↔', '🏻', '❤️', '❤', '☺', '⏺', '✔', '✓',
  '╭────╮', '│ MewCode 0.2.0 · /tmp │', '›', 'naïve café', '日本語のテキスト', '한국어', 'ｶﾞ', 'e\u0301', '\u200b', 'tab\there', '\u001b[31mred\u001b[39m', 'plain ASCII', '',
];

test('the patched string-width measures as the published one: every code point to U+1FFFF and emoji sequences', async () => {
  const patched = await loadPatched();
  const published = ((await import(pathToFileURL(original).href)) as { default: StringWidth }).default;
  const differences: string[] = [];
  const compare = (text: string): void => {
    for (const options of [{}, { ambiguousIsNarrow: false }]) {
      if (patched(text, options) !== published(text, options)) differences.push(`${JSON.stringify(text)} ${JSON.stringify(options)}: ${patched(text, options)} ≠ ${published(text, options)}`);
    }
  };
  for (let codePoint = 0x20; codePoint <= 0x1ffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    compare(String.fromCodePoint(codePoint));
  }
  for (const text of SEQUENCES) compare(text);
  expect(differences).toEqual([]);
});

test('text without emoji never builds the RGI emoji expression; the first emoji builds it once', async () => {
  const patched = await loadPatched();
  const NativeRegExp = globalThis.RegExp;
  let built = 0;
  globalThis.RegExp = new Proxy(NativeRegExp, {
    construct(target, args: [string, string?]) {
      if (String(args[0]).includes('RGI_Emoji')) built++;
      return new target(...args);
    },
  });
  try {
    expect(patched('╭──── MewCode · 日本語 ────╮')).toBe(28);
    expect(built).toBe(0);
    expect(patched('ok 😀')).toBe(5);
    expect(patched('👍🏽 🇫🇷')).toBe(5);
    expect(built).toBe(1);
  } finally {
    globalThis.RegExp = NativeRegExp;
  }
});

test('a string-width of another shape fails the build instead of going unpatched', () => {
  expect(() => patch('const rgiEmojiRegex = /x/v;', 'string-width/index.js')).toThrow('string-width/index.js declares its RGI emoji expression 0 times');
});
