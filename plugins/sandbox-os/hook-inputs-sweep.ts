/**
 * After a sandboxed command: what installed git hooks read or run (sdk/git-hook-inputs.ts) that
 * the mount plan could not keep read-only as itself (`MountPlan.watched`: missing, or a link),
 * made or changed during the command, is set aside as a planted git directory is (a missing one
 * found after the command was made during it). lefthook's
 * `lefthook-local.yml` is the case in point: git-ignored as lefthook advises, it would run at the
 * user's next commit without showing in `git status`. Also what a command made in a git
 * directory's `info/` that is not git's own (sweepGitInfo).
 */
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { isGitInfoName } from './policy.js';
import { isPathWithin } from '../../types/path-within.js';
import type { Quarantined } from './git-sweep.js';
import { changedSince } from './settings-sweep.js';
import { follow, setAsideEntry, shownPath } from './sweep-paths.js';

const WHY = 'a file your installed git hooks read or run (made or changed by the command)';
const RUN_BY = 'your git hooks would have run what it names at your next git commit or checkout';
const CONFIGURED_WHY = 'a link on the way to a file your git configuration or installed hooks name (replaced by the command)';
const CONFIGURED_RUN_BY = 'git would have read or run what it then leads to at your next git command there';

export async function sweepHookInputs(watched: readonly { path: string; missing: boolean; configured?: true }[], roots: readonly string[], since: number): Promise<{ quarantined: Quarantined[]; unchecked: string[] }> {
  const quarantined: Quarantined[] = [];
  const unchecked: string[] = [];
  for (const { path: file, missing, configured } of watched) {
    const [why, runBy] = configured ? [CONFIGURED_WHY, CONFIGURED_RUN_BY] : [WHY, RUN_BY];
    // Missing before the command, there now: made by it, whatever its times say (a file written
    // by an earlier command elsewhere keeps its ctime when its folder is renamed into place).
    if (missing ? (await lstat(file).catch(() => undefined)) === undefined : !(await changedSince(file, since))) continue;
    let entry = file;
    let result = setAsideEntry(file, roots);
    if (result !== undefined && !('movedTo' in result)) {
      // Refused for a link on the way (`tools -> x` made by the command): the link is set aside
      // instead, which is what leads to the file; a link older than the command is the user's (a
      // checkout brought the file behind it), and what it leads to is named as not set aside.
      const link = await firstLinkOnTheWay(file, roots, since);
      if (link !== undefined) [entry, result] = [link, setAsideEntry(link, roots)];
    }
    if (result === undefined) continue; // gone meanwhile (or never made)
    if ('movedTo' in result) quarantined.push({ path: entry, movedTo: result.movedTo, why: entry === file ? why : `a link on the way to ${why}`, runBy });
    else unchecked.push(`${shownPath(file)} holds ${why}, but could not be set aside (${result.refused})`);
  }
  return { quarantined, unchecked };
}

/** The first link on the way from the root holding `file` to it, inside that root, when made or changed since `since`. */
async function firstLinkOnTheWay(file: string, roots: readonly string[], since: number): Promise<string | undefined> {
  const root = roots.filter((candidate) => isPathWithin(candidate, file) && candidate !== file).sort((a, b) => a.length - b.length)[0];
  if (root === undefined) return undefined;
  const first = (await follow(root, path.relative(root, path.dirname(file)), roots)).links[0];
  return first !== undefined && first.ctimeMs >= since ? first.path : undefined;
}

const INFO_WHY = "made in a git directory's info/ folder by the command, where only git's own files belong";
const INFO_RUN_BY = 'tools on your machine trust what is there (lefthook runs the commands of the remote configurations it keeps in info/lefthook-remotes at your next commit)';

/**
 * After a command: an entry of a git directory's `info/` that was not there when the plan was made
 * (MountPlan.gitInfo) and is not git's own is set aside, whatever its times: such a folder is a
 * tool's state that a program on the host trusts (lefthook's clone of a remote configuration).
 */
export async function sweepGitInfo(infos: readonly { dir: string; names: readonly string[] }[], roots: readonly string[]): Promise<{ quarantined: Quarantined[]; unchecked: string[] }> {
  const quarantined: Quarantined[] = [];
  const unchecked: string[] = [];
  for (const { dir, names } of infos) {
    const before = new Set(names);
    const now = await readdir(dir).catch(() => [] as string[]);
    for (const name of now) {
      if (before.has(name) || isGitInfoName(name)) continue;
      const file = path.join(dir, name);
      const result = setAsideEntry(file, roots);
      if (result === undefined) continue;
      if ('movedTo' in result) quarantined.push({ path: file, movedTo: result.movedTo, why: INFO_WHY, runBy: INFO_RUN_BY });
      else unchecked.push(`${shownPath(file)} was ${INFO_WHY}, but could not be set aside (${result.refused})`);
    }
  }
  return { quarantined, unchecked };
}

/** Said once per session when an installed hook, or a program git's configuration names (a merge driver's `npx …`), runs the project's own code (npx, node_modules). */
export const projectCodeWarning = (hooks: readonly string[]): string =>
  `sandbox-os: the git hooks installed in this repository, or programs your git configuration names, run the project's own code (${hooks.slice(0, 3).join(', ')}${hooks.length > 3 ? ', …' : ''}). ` +
  "Sandboxed commands can change it: installs must write node_modules, which git status does not show, and Python run with -m imports from the project's top folder first. " +
  'After a session you do not trust, reinstall the packages yourself (npm ci), look at what is new in the top folder, or commit with --no-verify.';
