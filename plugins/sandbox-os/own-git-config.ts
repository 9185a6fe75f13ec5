/**
 * The git configuration files the plan keeps read-only by a mount over each file (the project's
 * `.git/config` and `config.worktree`, a submodule's): a mount the host's own git takes away when
 * it writes the file while a command runs (git renames a lock file over it; replaced-files.ts
 * stops the command then, but not before it could act). So each is read when the command is
 * prepared, and after the command one replaced since is judged against that reading: a key that
 * runs a program or redirects git (sdk/git-config-paths.ts runsOrRedirects) that was not there
 * before may be the command's, written once the mount was gone. The file is then set aside whole (it keeps what
 * the host's git wrote too) and the reading from before is written back in its place. A change of
 * keys that run nothing (branch tracking, a new remote's URL) is the host's own and is left.
 */
import { lstatSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readGitFile } from '../../types/small-file.js';
import { parseGitConfig } from '../../sdk/git-config-syntax.js';
import { runsOrRedirects } from '../../sdk/git-config-paths.js';
import type { Quarantined } from './git-sweep.js';
import type { MountPlan } from './mount-plan.js';
import { pathStamp } from './replaced-files.js';
import { setAsideEntry, shownPath } from './sweep-paths.js';

export interface ConfigReading {
  file: string;
  /** Device and inode when read. */
  id: string;
  text: string;
}

const modeOf = (file: string): number => {
  try {
    return lstatSync(file).mode & 0o777;
  } catch {
    return 0o644;
  }
};

/** The git configuration files among what the plan keeps read-only file by file, as they are now. */
export function readOwnConfigs(plan: MountPlan): ConfigReading[] {
  const readings: ConfigReading[] = [];
  for (const file of plan.readOnly) {
    const name = path.basename(file);
    if (name !== 'config' && name !== 'config.worktree') continue;
    const id = pathStamp(file);
    if (id === undefined) continue;
    try {
      readings.push({ file, id, text: readGitFile(file) });
    } catch {
      // unreadable now: nothing to compare with later
    }
  }
  return readings;
}

/**
 * Entries of `now` that run a program or redirect git (sdk/git-config-paths.ts runsOrRedirects:
 * not a branch's tracking or an editor's bookkeeping, which the user's own git adds all day) and
 * are not in `before` (as key and value), or a line that does not parse.
 */
function added(before: string, now: string): string[] {
  const known = new Set(parseGitConfig(before).map(({ key, value }) => `${key}\u0000${value}`));
  const unparsed: string[] = [];
  const found = parseGitConfig(now, unparsed)
    .filter(({ key, value }) => runsOrRedirects(key, value) && !known.has(`${key}\u0000${value}`))
    .map(({ key }) => key);
  const unparsedBefore: string[] = [];
  parseGitConfig(before, unparsedBefore);
  for (const line of unparsed) if (!unparsedBefore.includes(line)) found.push(`a line that does not parse (${JSON.stringify(line.slice(0, 40))})`);
  return [...new Set(found)];
}

/** After a command: each reading whose file was replaced meanwhile and now runs something new is set aside, and the reading written back. */
export function restoreOwnConfigs(readings: readonly ConfigReading[], roots: readonly string[]): { quarantined: Quarantined[]; unchecked: string[] } {
  const quarantined: Quarantined[] = [];
  const unchecked: string[] = [];
  for (const reading of readings) {
    if (pathStamp(reading.file) === reading.id) continue; // its mount held: the command could not write it
    let keys: string[];
    try {
      keys = added(reading.text, readGitFile(reading.file));
    } catch (error) {
      // Removed: git reads nothing. Anything else it cannot be read as git would (too large, not
      // a regular file) cannot be judged: it counts.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      keys = [`a file that cannot be read to check (${(error as Error).message})`];
    }
    if (keys.length === 0) continue;
    const why = `git configuration that runs programs (${keys.join(', ')}), written after this machine's git replaced the file during the command and its read-only mount was gone`;
    // The reading is written beside it first (with the file's mode), so that the repository is
    // never left without a configuration: then the file is set aside and the reading put in its place.
    const temporary = path.join(path.dirname(reading.file), `.${path.basename(reading.file)}.mewcode-${process.pid}`);
    try {
      writeFileSync(temporary, reading.text, { flag: 'wx', mode: modeOf(reading.file) });
    } catch (error) {
      unchecked.push(`${shownPath(reading.file)} holds ${why}, but the configuration from before could not be written beside it (${(error as Error).message}): look at it before your next git command there`);
      continue;
    }
    const result = setAsideEntry(reading.file, roots);
    if (result === undefined || !('movedTo' in result)) {
      rmSync(temporary, { force: true });
      if (result !== undefined) unchecked.push(`${shownPath(reading.file)} holds ${why}, but could not be set aside (${result.refused})`);
      continue;
    }
    try {
      renameSync(temporary, reading.file);
      quarantined.push({ path: reading.file, movedTo: result.movedTo, why, runBy: 'git would have run it at your next git command there; MewCode put back the configuration from before the command (the renamed file also holds what your git wrote)' });
    } catch (error) {
      rmSync(temporary, { force: true });
      unchecked.push(`${shownPath(reading.file)} was set aside (${shownPath(result.movedTo)}) but the configuration from before could not be put back (${(error as Error).message}): rename it back after looking at it`);
    }
  }
  return { quarantined, unchecked };
}
