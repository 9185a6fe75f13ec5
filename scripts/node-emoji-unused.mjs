// The node-emoji the bundle gives marked-terminal: it imports the package at load (with emojilib's
// keyword table, ≈ 10 ms of the terminal UI's start) but calls it only with its `emoji` option,
// which the terminal UI turns off (plugins/ui-tui/app/markdown.ts: `:shortcodes:` stay as typed).
export function get() {
  return undefined;
}
