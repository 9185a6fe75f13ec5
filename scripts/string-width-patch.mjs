// The terminal UI's string-width (used by Ink, wrap-ansi, cli-truncate and widest-line to measure
// every line it draws). Its RGI emoji expression, `/^\p{RGI_Emoji}$/v`, cost ≈ 15 ms to build at
// load and ≈ 30 ms to compile at its first test, and that test came with the first non-ASCII text
// on screen (the banner's border): ≈ 45 ms of the UI's first frame. Every RGI emoji sequence holds
// a non-ASCII code point with the Emoji property or the keycap mark U+20E3 (UTS #51: basic emoji,
// keycaps, flags, modifier, tag and ZWJ sequences), so a cluster with neither is not an RGI emoji:
// the expression is tested only on clusters that have one, and built at the first such test.
// test/extension/string-width-patch.test.ts compares the result with the original.

const ORIGINAL = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';

const REPLACEMENT = [
  '// MewCode build (scripts/string-width-patch.mjs): built at first use, tested only where an RGI emoji can be.',
  'const possibleEmojiRegex = /\\u20E3|(?![\\0-\\x7F])\\p{Emoji}/u;',
  'let rgiEmojiRegexBuilt;',
  "const rgiEmojiRegex = { test: (segment) => possibleEmojiRegex.test(segment) && (rgiEmojiRegexBuilt ??= new RegExp('^\\\\p{RGI_Emoji}$', 'v')).test(segment) };",
].join('\n');

/** string-width 8's source with its RGI emoji expression made lazy; throws if the source has another shape. */
export function patchStringWidth(source, file = 'string-width') {
  const found = source.split(ORIGINAL).length - 1;
  if (found !== 1) throw new Error(`string-width-patch: ${file} declares its RGI emoji expression ${found} times, not once as this build expects; check the new version`);
  return source.replace(ORIGINAL, () => REPLACEMENT); // a function: the text holds `$'`
}
