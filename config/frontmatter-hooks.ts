/**
 * A definition file's (SKILL.md, command file) frontmatter `hooks:` for the workspace trust scan:
 * whether the key is there and, for the trust notice, the command each handler runs with its
 * event (`PreToolUse: ./guard.sh`). Read from the frontmatter's lines without a YAML parser
 * (config/ stays below sdk/). A spelling this misses (a key written in a flow mapping or with
 * escapes) only leaves the file out of the scan, and then trust never approves it: the plugins,
 * which parse the file, run a project's file's hooks only when trust approved its exact text.
 */

const HOOKS_KEY = /^["']?hooks["']?\s*:/;
const EVENT_KEY = /^\s+["']?([A-Z][A-Za-z]*)["']?\s*:/;
const COMMAND = /\bcommand["']?\s*:\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^']|'')*)'|([^,}\n]+))/g;

/** The frontmatter's lines (between the opening `---` and the next `---`), or none. */
function frontmatterLines(text: string): string[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return [];
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  return end < 0 ? [] : lines.slice(1, end);
}

/** Whether the frontmatter has a top-level `hooks:` key. */
export function hasFrontmatterHooks(text: string): boolean {
  return frontmatterLines(text).some((line) => HOOKS_KEY.test(line));
}

/** `Event: command` of each command handler under the frontmatter's `hooks:`, as written (for the trust notice). */
export function frontmatterHookCommands(text: string): string[] {
  const found: string[] = [];
  let inside = false;
  let event = '';
  for (const line of frontmatterLines(text)) {
    // A top-level key ends the block; `hooks:` starts it (its own line may hold a flow mapping).
    if (/^\S/.test(line)) inside = HOOKS_KEY.test(line);
    if (!inside) continue;
    const key = EVENT_KEY.exec(line);
    if (key && key[1] !== undefined) event = key[1];
    for (const match of line.matchAll(COMMAND)) {
      const command = (match[1] ?? match[2]?.replace(/''/g, "'") ?? match[3] ?? '').trim();
      if (command) found.push(event ? `${event}: ${command}` : command);
    }
  }
  return found;
}
