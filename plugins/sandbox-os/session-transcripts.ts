/**
 * MewCode's own records in the projects it ran in, hidden from commands: each session's transcript
 * keeps every prompt (a token the user pasted) and every tool result (a `.env` the model read)
 * verbatim, in `<project>/.mewcode/sessions/`, beside the audit log and the saved tool outputs. A
 * command in one project could read another project's with `find ~ -name conversation.jsonl`.
 *
 * The saved full outputs of cut tool results (`.mewcode/tool-output/`, a folder per session, kept
 * a week) hold what earlier commands printed: a credential an approved command showed.
 *
 * The projects are the ones the user's own `~/.mewcode/sessions.jsonl` lists (hidden itself):
 * another project's whole `.mewcode` folder is hidden; in a writable root (this project), its
 * earlier sessions (`.mewcode/sessions`: what a command never needs) and its saved outputs
 * (`.mewcode/tool-output`, whose current session's own folder is bound back read-only:
 * own-spill-folder.ts, as the tool results may name files in it). At most MAX_HIDDEN_PROJECTS
 * projects, the most recent: each costs the command a mount (bubblewrap reads the mount table
 * again after each, ≈ 0.2 ms); one under /tmp needs none (the sandbox's /tmp is its own).
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { knownSessionsFile, readNoFollow } from '../../sdk/session-files.js';
import { isPathWithin } from '../../types/path-within.js';

export const MAX_HIDDEN_PROJECTS = 32;

let cached: { stamp: string; roots: string[] } | undefined;

/** The project roots of `sessions.jsonl`, the most recent first, without repeats (read again only when the file changed). */
async function knownRoots(homeDir: string): Promise<string[]> {
  const file = knownSessionsFile(homeDir);
  const info = await stat(file).catch(() => undefined);
  if (info === undefined) return [];
  const stamp = `${file}:${info.ino}:${info.size}:${info.mtimeMs}`;
  if (cached?.stamp === stamp) return cached.roots;
  let text: string;
  try {
    text = readNoFollow(file);
  } catch {
    return [];
  }
  const roots: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n').reverse()) {
    try {
      const root = (JSON.parse(line) as { root?: unknown }).root;
      if (typeof root === 'string' && path.isAbsolute(root) && !seen.has(root)) {
        seen.add(root);
        roots.push(root);
      }
    } catch {
      // a torn or foreign line
    }
  }
  cached = { stamp, roots };
  return roots;
}

/** What to hide: other projects' `.mewcode`, the writable roots' session records and saved outputs; and whether the list was cut. */
export async function sessionRecordPaths(homeDir: string, writableRoots: readonly string[], max = MAX_HIDDEN_PROJECTS): Promise<{ paths: string[]; truncated: boolean }> {
  const roots = await knownRoots(homeDir);
  const paths = writableRoots.flatMap((root) => [path.join(root, '.mewcode', 'sessions'), path.join(root, '.mewcode', 'tool-output')]);
  const others = roots.filter((root) => !writableRoots.includes(root) && !isPathWithin('/tmp', root));
  for (const root of others.slice(0, max)) paths.push(path.join(root, '.mewcode'));
  return { paths, truncated: others.length > max };
}
