/**
 * After each sandboxed command (from git-review.ts): a mailmap the command made or changed that
 * holds a terminal control character. `git log`, `git shortlog` and `git blame` map authors' names
 * through the work tree's top-level `.mailmap` (log.mailmap is on by default) and print the mapped
 * name as it is, so a `.mailmap` (git-ignored or not: git reads it either way) mapping an author
 * to an escape sequence (OSC 52 sets the clipboard to a command a paste runs) reaches the user's
 * terminal at their next `git log`. The file a repository's own configuration names
 * (`mailmap.file`; the configuration itself is read-only to commands) is judged the same way.
 * Such a file is set aside (renamed, as the sweep sets files aside) and named; made or changed
 * through a link, the link is what is set aside.
 */
import path from 'node:path';
import { parseGitConfig } from '../../sdk/git-config-syntax.js';
import { lstat } from './byte-fs.js';
import { fromBytes } from './byte-names.js';
import { hasControl } from './git-printed.js';
import { follow, readSmallFile, setAsideEntry, shownPath } from './sweep-paths.js';

interface Found {
  notices: string[];
  unchecked: string[];
}

/** The mailmap files git reads for `workTree`: its `.mailmap`, and `mailmap.file` in the repository's own configuration (relative to the work tree, where git runs). */
async function mailmaps(gitDir: string, workTree: string): Promise<string[]> {
  const files = ['.mailmap'];
  const config = await readSmallFile(path.join(gitDir, 'config'));
  if (config !== undefined && 'bytes' in config) {
    for (const entry of parseGitConfig(fromBytes(config.bytes))) if (entry.key === 'mailmap.file' && entry.value !== '' && !entry.value.startsWith('~')) files.push(entry.value);
  }
  return [...new Set(files.map((file) => path.resolve(workTree, file)))];
}

/** After a command that started at `since`: the mailmaps of `workTree` (shown as `where`) it made or changed. */
export async function checkMailmap(gitDir: string, workTree: string, where: string, roots: readonly string[], since: number, result: Found): Promise<void> {
  for (const file of await mailmaps(gitDir, workTree)) {
    const reached = await follow(path.dirname(file), path.basename(file), roots);
    if (reached.real === undefined) continue;
    const info = await lstat(reached.real).catch(() => undefined);
    const changed = Math.max(info?.ctimeMs ?? -Infinity, ...reached.links.map((link) => link.ctimeMs)) >= since;
    if (!changed || !info?.isFile()) continue;
    // Set aside: the first link on the way that the command could write, else the file (only inside the roots).
    const entry = reached.links[0]?.path ?? (reached.inside ? file : undefined);
    if (entry === undefined) continue; // outside the roots and reached through no link of theirs: not the command's
    const read = await readSmallFile(reached.real);
    const shown = JSON.stringify(shownPath(file));
    if (read === undefined) continue;
    if ('tooLarge' in read) {
      result.unchecked.push(`the mailmap ${shown} of ${where} was changed during the command and is too large to check for terminal control characters`);
      continue;
    }
    if (!hasControl(read.bytes)) continue;
    const aside = setAsideEntry(entry, roots);
    if (aside === undefined) continue;
    const what = `the command left the mailmap ${shown} in ${where} holding a terminal control character; \`git log\`, \`git shortlog\` and \`git blame\` print the names it maps authors to into your terminal as they are, where a control sequence can set your clipboard (OSC 52) or your window title`;
    result.notices.push('movedTo' in aside ? `${what}. MewCode set it aside to ${JSON.stringify(shownPath(aside.movedTo))}` : `${what}. MewCode could not set it aside (${aside.refused}): remove it before you run \`git log\``);
  }
}
