/**
 * After each sandboxed command (from git-review.ts): what makes git show other history than the
 * one the refs name. The index can be made to agree with HEAD by substituting HEAD itself: a
 * replace ref (`git replace HEAD <commit holding the change>`) makes `git status`, `git diff HEAD`
 * and `git log -p` show the substitute everywhere, so a staged change looks committed long ago and
 * the user's next commit carries it. Grafts (`info/grafts`) give a commit other parents, so
 * `git log -p` shows another diff for it. `shallow` cuts history at a commit, so `git show` lists
 * the whole tree as new and its real diff is lost in it. The commit-graph (`objects/info/`) records
 * each commit's tree and parents, and git takes them from there instead of from the commit: one
 * written by hand names another tree for HEAD.
 *
 * Compared with the state before the command, in the git directory holding the refs (a linked
 * worktree's common directory):
 * - a replace ref made during the command is deleted, one of the user's it changed is set back
 *   (`git update-ref`, the host's git run as git-run.ts runs it: loose refs, packed-refs and a
 *   reftable alike), and each is named with the object it named;
 * - `info/grafts` that gained lines is set aside (renamed, the user's own lines with it) and named;
 * - commits added to `shallow` are named, not undone (a fetch with `--depth` adds them too, and git
 *   needs them where the parents are missing);
 * - a commit-graph written during the command (git gc writes one too) is checked against the
 *   commits by the host's git (`git commit-graph verify`); one that differs, or that cannot be
 *   checked in time, is set aside (git reads the commits themselves without it) and named.
 * Without the state from before (a sweep for a command MewCode died during), what is there is
 * named when it changed during the command, not undone. The same pass checks the objects
 * (git-objects.ts), the refs' names, new commits and notes (git-refs.ts) and the reflogs' new
 * lines (git-reflogs.ts); the refs are listed once
 * for both the replace refs and those.
 */
import path from 'node:path';
import { entries, lstat } from './byte-fs.js';
import { fromBytes } from './byte-names.js';
import { checkObjects, NEW_OBJECTS, objectsState, type ObjectsState } from './git-objects.js';
import { checkLogs, logsState, type LogsState } from './git-reflogs.js';
import { checkRefs, listRefs, type Listed } from './git-refs.js';
import { runHostGit } from './git-run.js';
import { follow, readSmallFile, setAsideEntry, shownPath } from './sweep-paths.js';

/** Before a command, per git directory; a member undefined: could not be read. */
export interface HistoryState {
  /** Each ref under refs/replace/ and the object it names. */
  replaces: ReadonlyMap<string, string> | undefined;
  grafts: ReadonlySet<string> | undefined;
  shallow: ReadonlySet<string> | undefined;
  /** Every ref and a detached HEAD (git-refs.ts). */
  refs: Listed | undefined;
  /** The objects (git-objects.ts); NEW_OBJECTS in a git directory the command made. */
  objects: ObjectsState | typeof NEW_OBJECTS | undefined;
  /** Each reflog's size (git-reflogs.ts). */
  logs: LogsState | undefined;
}

/** A git directory the command could not have substituted anything in (one it made). */
export const NO_HISTORY: HistoryState = { replaces: new Map(), grafts: new Set(), shallow: new Set(), refs: { refs: new Map(), head: undefined }, objects: NEW_OBJECTS, logs: new Map() };

interface Found {
  notices: string[];
  unchecked: string[];
}

/** Where refs, `info/grafts` and `shallow` live: where `commondir` points, else the git directory; undefined when that is outside the roots (the command cannot write it). */
export async function commonDirOf(gitDir: string, roots: readonly string[]): Promise<string | undefined> {
  const pointer = await follow(gitDir, 'commondir', roots);
  if (pointer.real === undefined) return gitDir;
  const read = pointer.inside ? await readSmallFile(pointer.real) : undefined;
  if (read === undefined || 'tooLarge' in read) return undefined;
  const target = await follow(gitDir, fromBytes(read.bytes).split('\n')[0] ?? '', roots);
  return target.real !== undefined && target.inside ? target.real : undefined;
}

/** The lines of a file in the common directory that say something; undefined when it cannot be read. */
async function lines(commonDir: string, name: string, roots: readonly string[]): Promise<ReadonlySet<string> | undefined> {
  const reached = await follow(commonDir, name, roots);
  if (reached.real === undefined) return reached.blocked ? undefined : new Set();
  if (!reached.inside) return undefined;
  const read = await readSmallFile(reached.real);
  if (read === undefined || 'tooLarge' in read) return undefined;
  return new Set(
    fromBytes(read.bytes)
      .split(/\r?\n/)
      .map((line) => line.trim().replace(/\s+/g, ' '))
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

const REF_STORES = ['refs/replace', 'packed-refs', 'reftable'];

/**
 * The replace refs among the refs git lists (git-refs.ts: listed again only when a ref store
 * changed); none where no ref store could hold one, even when git could not list them.
 */
async function replaceRefs(commonDir: string, listed: Listed): Promise<{ refs: Map<string, string> } | { why: string }> {
  if ('why' in listed) {
    const present = await Promise.all(REF_STORES.map((name) => lstat(path.join(commonDir, name)).then(() => true, () => false)));
    return present.some(Boolean) ? listed : { refs: new Map() };
  }
  return { refs: new Map([...listed.refs].filter(([ref]) => ref.startsWith('refs/replace/'))) };
}

/** Before a command: the history substitutions in `gitDir`. Never throws. */
export async function historyState(gitDir: string, workTree: string, roots: readonly string[]): Promise<HistoryState> {
  try {
    const commonDir = await commonDirOf(gitDir, roots);
    if (commonDir === undefined) return NO_HISTORY;
    const objects = objectsState(commonDir);
    const refs = await listRefs(commonDir, gitDir, workTree);
    const listed = await replaceRefs(commonDir, refs);
    return { replaces: 'refs' in listed ? listed.refs : undefined, refs, grafts: await lines(commonDir, 'info/grafts', roots), shallow: await lines(commonDir, 'shallow', roots), objects, logs: logsState(commonDir, gitDir) };
  } catch {
    return { replaces: undefined, grafts: undefined, shallow: undefined, refs: undefined, objects: undefined, logs: undefined };
  }
}

const changedSince = async (file: string, since: number): Promise<boolean> => ((await lstat(file).catch(() => undefined))?.ctimeMs ?? -Infinity) >= since;

/**
 * After a command that started at `since`: the substitutions in `gitDir` (work tree shown as
 * `where`) against `before` (undefined: unknown). `checked`: common directories already checked
 * this time (a worktree shares its main repository's).
 */
export async function checkHistory(gitDir: string, workTree: string, where: string, roots: readonly string[], since: number, before: HistoryState | undefined, checked: Set<string>, result: Found): Promise<void> {
  const commonDir = await commonDirOf(gitDir, roots);
  if (commonDir === undefined || checked.has(commonDir)) return;
  checked.add(commonDir);
  const refs = await listRefs(commonDir, gitDir, workTree);
  await checkReplaces(commonDir, gitDir, workTree, where, since, before, refs, result);
  await checkRefs(commonDir, gitDir, workTree, where, since, before?.refs, before === NO_HISTORY, refs, result);
  await checkLogs(commonDir, gitDir, where, roots, since, before?.logs, result);
  await checkGrafts(commonDir, roots, since, before, result);
  await checkCommitGraph(commonDir, gitDir, workTree, where, roots, since, result);
  await checkObjects(commonDir, gitDir, workTree, where, roots, since, before?.objects, result);
  const shallow = await lines(commonDir, 'shallow', roots);
  const addedShallow = [...(shallow ?? [])].filter((line) => !before?.shallow?.has(line));
  if (addedShallow.length > 0 && (before?.shallow !== undefined || (await changedSince(path.join(commonDir, 'shallow'), since)))) {
    result.notices.push(
      `${JSON.stringify(shownPath(path.join(commonDir, 'shallow')))} gained ${addedShallow.slice(0, 3).join(', ')}${addedShallow.length > 3 ? ` and ${addedShallow.length - 3} more` : ''}: git shows ${addedShallow.length === 1 ? 'that commit' : 'those commits'} without parents, so \`git log -p\` and \`git show\` list the whole tree as new instead of what changed (a fetch with --depth adds them too; left as it is)`,
    );
  }
}

async function checkReplaces(commonDir: string, gitDir: string, workTree: string, where: string, since: number, before: HistoryState | undefined, refs: Listed, result: Found): Promise<void> {
  const touched = async (): Promise<boolean> => (await Promise.all(REF_STORES.map((name) => changedSince(path.join(commonDir, name), since)))).some(Boolean);
  const listed = await replaceRefs(commonDir, refs);
  if ('why' in listed) {
    const reftable = await lstat(path.join(commonDir, 'reftable')).then(() => ' (a reftable, which this git may not read)', () => '');
    const what = `the replace refs of ${where}${reftable} could not be listed (${listed.why}): one the command made would make git status, git diff and git log show another commit than HEAD; \`git replace -l\` lists them, \`git --no-replace-objects diff HEAD\` reviews without them`;
    if (await touched()) result.notices.push(what);
    else result.unchecked.push(what);
    return;
  }
  const earlier = before?.replaces;
  const changes = [...listed.refs].filter(([ref, oid]) => earlier?.get(ref) !== oid);
  if (changes.length === 0) return;
  const how = 'a replace ref makes git show one object as another everywhere (git status, git diff HEAD, git log -p), so a change can hide inside a commit that does not hold it';
  if (earlier === undefined) {
    if (await touched()) {
      result.notices.push(`${where} has replace refs MewCode cannot tell the command did not make: ${changes.map(([ref, oid]) => `${ref} → ${oid}`).join(', ')}; ${how}: \`git replace -d\` removes one, \`git --no-replace-objects diff HEAD\` reviews without them`);
    }
    return;
  }
  for (const [ref, oid] of changes) {
    const old = earlier.get(ref);
    // The expected value is given, so a ref changed again since is left alone; --no-deref, so a
    // replace ref made a symbolic ref deletes itself, not the branch it names.
    const run = await runHostGit(gitDir, workTree, old === undefined ? ['update-ref', '--no-deref', '-d', ref, oid] : ['update-ref', '--no-deref', ref, old, oid]);
    const what = old === undefined ? `the command made the replace ref ${ref} (→ ${oid}) in ${where}` : `the command changed your replace ref ${ref} in ${where} from ${old} to ${oid}`;
    result.notices.push(
      run.ok
        ? `${what}; ${how}. MewCode ${old === undefined ? 'removed it' : 'set it back'}: review with git status and git diff`
        : `${what}; ${how}. MewCode could not ${old === undefined ? 'remove' : 'set back'} it (${run.why}): run \`git replace -d ${ref.slice('refs/replace/'.length)}\` before you review`,
    );
  }
}

async function checkGrafts(commonDir: string, roots: readonly string[], since: number, before: HistoryState | undefined, result: Found): Promise<void> {
  const file = path.join(commonDir, 'info', 'grafts');
  const now = await lines(commonDir, 'info/grafts', roots);
  const earlier = before?.grafts;
  const shown = JSON.stringify(shownPath(file));
  const how = 'grafts give commits other parents, so git log -p shows another change for them than they hold';
  if (now === undefined || earlier === undefined) {
    if ((await changedSince(file, since)) && (now === undefined || now.size > 0)) result.notices.push(`${shown} changed during the command and MewCode cannot tell what it held before; ${how}: look at what it says (git reads it whatever the options)`);
    return;
  }
  const added = [...now].filter((line) => !earlier.has(line));
  if (added.length === 0) return;
  const aside = setAsideEntry(file, roots);
  const what = `${shown} gained ${added.length === 1 ? 'a line' : `${added.length} lines`} during the command (${added.slice(0, 3).map((line) => JSON.stringify(line)).join(', ')}); ${how}`;
  const yours = earlier.size > 0 ? ' (your own lines from before the command are in it too: put them back once reviewed)' : '';
  result.notices.push(
    aside !== undefined && 'movedTo' in aside
      ? `${what}. MewCode set it aside to ${JSON.stringify(shownPath(aside.movedTo))}${yours}`
      : `${what}. MewCode could not set it aside${aside === undefined ? '' : ` (${aside.refused})`}: remove it before you review`,
  );
}

/** The commit-graph: a single file, or a chain of them in a directory. */
const GRAPHS = ['objects/info/commit-graph', 'objects/info/commit-graphs'];

async function checkCommitGraph(commonDir: string, gitDir: string, workTree: string, where: string, roots: readonly string[], since: number, result: Found): Promise<void> {
  const files = GRAPHS.map((name) => path.join(commonDir, name));
  const chain = await entries(files[1]!).catch(() => []);
  // A file rewritten in place changes its own time only, not its directory's.
  const written = await Promise.all([...files, ...chain.map((entry) => path.join(files[1]!, entry.name))].map((file) => changedSince(file, since)));
  if (!written.some(Boolean)) return;
  const run = await runHostGit(gitDir, workTree, ['commit-graph', 'verify']);
  if (run.ok) return;
  const aside = files.map((file) => setAsideEntry(file, roots));
  const refused = aside.flatMap((moved) => (moved !== undefined && 'refused' in moved ? [moved.refused] : []));
  const what = `the commit-graph of ${where} (which git reads each commit's tree and parents from instead of the commit) was written during the command and does not match the commits (\`git commit-graph verify\`: ${run.why}), so git status, git diff HEAD and git log could show another tree for a commit than it holds`;
  result.notices.push(
    refused.length === 0
      ? `${what}; MewCode set it aside (git reads the commits themselves without it; \`git commit-graph write --reachable\` writes a new one)`
      : `${what}, and MewCode could not set it aside (${refused.join('; ')}): remove ${GRAPHS.map((name) => JSON.stringify(name)).join(' and ')} from the git directory before you review`,
  );
}
