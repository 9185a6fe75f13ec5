// The cli-highlight the bundle gives marked-terminal (the terminal UI's Markdown renderer):
// marked-terminal imports it at load, and with it highlight.js with its languages, parse5 and
// htmlparser2, ≈ 15 ms of the terminal UI's start. Only a code block in an answer needs it, so it
// loads at the first one (scripts/third-party-redirects.mjs resolves marked-terminal's import
// here; this file's own `require` reaches the real package, resolved as marked-terminal's import
// would be, bundled as a lazily run CommonJS module).
let loaded;

export function highlight(code, options) {
  loaded ??= require('cli-highlight');
  return loaded.highlight(code, options);
}
