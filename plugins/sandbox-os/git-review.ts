/**
 * After each sandboxed command: what would hide the command's changes from the user's review. The
 * advice is to read `git status` and `git diff` before committing what a command did, and both
 * trust the index, which stays writable (git needs it for `git add`). A command could:
 *
 * - mark a file it changed as unchanged (`git update-index --assume-unchanged` or
 *   `--skip-worktree`): git then never looks at it, and the next commit's hook runs what it
 *   planted there unseen. Marks set during the command are cleared (by the host's git, run as
 *   git-run.ts runs it), and the user is told which files carried them; a file marked before the
 *   command (the user's own) that the command changed is named, its mark left alone. Without the
 *   state from before the command (a sweep for a command MewCode died during), the marks are
 *   named, not cleared.
 * - write stat data into the index that matches the file it changed while keeping the old object:
 *   git compares the stat data and takes the file for unchanged. Every entry recorded as changed
 *   during the command whose stat data matches its file is checked against the file's content
 *   (git's own hash, filters included, where a plain hash differs); one that differs has its
 *   stat data cleared (`git update-index --index-info` with its mode and object), so git looks at
 *   the file again, and is named.
 * - plant an untracked cache or a file system monitor's state (index extensions git trusts instead
 *   of looking): both are dropped when the index changed during the command (git builds them
 *   again when they are configured).
 * - add patterns to `info/exclude` (new files vanish from `git status`) or attributes to
 *   `info/attributes` (`-diff` hides the lines changed): a change to either is named, not undone
 *   (the user's own patterns are there too); `git status --ignored` lists what is excluded.
 *
 * - substitute history: a replace ref, grafts or shallow commits made during the command
 *   (git-history.ts); rewrite objects under their old names, or add packs or alternates that
 *   give old names other content (git-objects.ts).
 * - leave refs or commits whose names or messages `git branch` and `git log` print into the
 *   terminal with control characters (git-refs.ts).
 *
 * What is reviewed: each writable root's own index (its `.git` directory, or where a `.git` file
 * points) and the indexes of the submodules it registers (`git status` at the root reports theirs).
 */
import { nodeCrypto } from '../../types/lazy-builtin.js';
import path from 'node:path';
import { entries, lstat, readlink, readRegularFile } from './byte-fs.js';
import { fromBytes, isText, toBytes } from './byte-names.js';
import { indexFacts, ASSUME_UNCHANGED, SKIP_WORKTREE, type RecentEntry } from './git-index.js';
import { checkHistory, commonDirOf, historyState, NO_HISTORY, type HistoryState } from './git-history.js';
import { checkPlantedCommits, stateTips, type StateTips } from './git-planted-commits.js';
import { listRefs } from './git-refs.js';
import { logsState } from './git-reflogs.js';
import { checkMailmap } from './git-mailmap.js';
import { gitfilePath } from './git-pointers.js';
import { runHostGit } from './git-run.js';
import { gitlinkEntries, type GitEntry } from './git-walk.js';
import { checkStagedGuarded, guardedEntries, guardedPath, headState, type GuardedEntries, type HeadState } from './git-staged-guarded.js';
import { follow, isRealInside, readSmallFile, setAsideEntry, shownPath } from './sweep-paths.js';
import { configOffence } from './git-inert-config.js';
import { isPathWithin } from '../../types/path-within.js';

/** An index the user reviews: its git directory and work tree (real paths). */
interface Reviewed {
  gitDir: string;
  workTree: string;
}

/** Per git directory, before the command: its index's marks (path → bits), its info files' lines and its history substitutions; undefined: unknown. */
export type ReviewBaseline = Map<string, { marks: ReadonlyMap<string, number> | undefined; info: ReadonlyMap<string, ReadonlySet<string> | undefined>; history: HistoryState; guarded?: GuardedEntries; head?: HeadState; state?: StateTips; nested?: Reviewed }>;

/** Nested repositories (not submodules) whose commits are judged per command at most: the nearest the root first. */
const MAX_NESTED_REVIEWED = 16;

/** The absolute paths a repository's git configuration names (its hooks folder, what its hooks read): sdk/git-config-paths.ts. */
export type NamedByConfig = (gitDir: string, workTree: string) => readonly string[];

/** Files of a git directory that hide files from git status or change what git diff shows, and how. */
const INFO_FILES: Readonly<Record<string, string>> = {
  'info/exclude': 'hide new files from git status (`git status --ignored` lists them)',
  'info/attributes': 'change how git diff shows a file (`-diff` hides the lines changed) and what git add stores',
};

export interface ReviewResult {
  /** What the user should know, a sentence each. */
  notices: string[];
  /** What could not be checked, a sentence each. */
  unchecked: string[];
}

/** Marked files whose work-tree file is looked at per index (a sparse checkout marks thousands). */
const MAX_MARKED_LOOKED_AT = 10_000;
/** A file larger than this is not hashed to check its entry (said, not guessed). */
const MAX_HASHED_BYTES = 64 * 1024 * 1024;
/** Entry times are whole seconds on some file systems. */
const SECOND_MS = 1000;

/** The git directory a `.git` entry leads to, when it is a real directory inside the roots. */
async function gitDirOf(entry: Pick<GitEntry, 'path' | 'kind'>, roots: readonly string[]): Promise<string | undefined> {
  const parent = path.dirname(entry.path);
  let target = await follow(parent, path.basename(entry.path), roots);
  if (target.real !== undefined && target.inside && (await lstat(target.real).catch(() => undefined))?.isFile()) {
    const read = await readSmallFile(target.real);
    const pointer = read && 'bytes' in read ? gitfilePath(read.bytes) : undefined;
    if (pointer === undefined) return undefined;
    target = await follow(parent, pointer, roots);
  }
  if (target.real === undefined || !target.inside) return undefined;
  return (await lstat(target.real).catch(() => undefined))?.isDirectory() ? target.real : undefined;
}

/** Linked worktrees read at most per repository. */
const MAX_LINKED_WORKTREES = 64;

/** A git directory's linked worktrees (`worktrees/<id>`, real folders, with the work tree their `gitdir` file names). */
async function linkedWorktrees(gitDir: string): Promise<Reviewed[]> {
  const found: Reviewed[] = [];
  const dir = path.join(gitDir, 'worktrees');
  for (const entry of (await entries(dir).catch(() => [])).slice(0, MAX_LINKED_WORKTREES)) {
    const own = path.join(dir, entry.name);
    if (!(await lstat(own).catch(() => undefined))?.isDirectory()) continue;
    const read = await readRegularFile(path.join(own, 'gitdir'), 64 * 1024).catch(() => undefined);
    const pointer = read && 'bytes' in read ? fromBytes(read.bytes).split(/\r?\n/)[0]!.trim() : '';
    if (pointer !== '') found.push({ gitDir: own, workTree: path.dirname(path.resolve(own, pointer)) });
  }
  return found;
}

/** The indexes `git status` at each root reads: the root's own, its linked worktrees' and its registered submodules'. */
async function reviewedIndexes(roots: readonly string[]): Promise<Reviewed[]> {
  const found: Reviewed[] = [];
  for (const root of roots) {
    const own = await gitDirOf({ path: path.join(root, '.git'), kind: 'dir' }, roots);
    if (own === undefined) continue;
    found.push({ gitDir: own, workTree: root });
    // Its linked worktrees: their HEAD, index, reflog and state are in its git directory, which commands may write (a red team's).
    for (const linked of await linkedWorktrees(own)) if (!found.some((known) => known.gitDir === linked.gitDir)) found.push(linked);
    for (const entry of (await gitlinkEntries(root, roots)).entries) {
      const gitDir = await gitDirOf(entry, roots);
      if (gitDir !== undefined && !found.some((known) => known.gitDir === gitDir)) found.push({ gitDir, workTree: path.dirname(entry.path) });
    }
  }
  return found;
}

/** Before a command: the marks in each index it could change. Never throws (an index not read is unknown). */
export async function reviewBaseline(roots: readonly string[], named: NamedByConfig = () => [], nested: readonly Reviewed[] = []): Promise<ReviewBaseline> {
  const baseline: ReviewBaseline = new Map();
  try {
    for (const { gitDir, workTree } of await reviewedIndexes(roots)) {
      const facts = await indexFacts(gitDir, workTree).catch(() => undefined);
      const info = new Map<string, ReadonlySet<string> | undefined>();
      for (const name of Object.keys(INFO_FILES)) info.set(name, (await infoLines(gitDir, name, roots)).lines);
      const guarded = await guardedEntries(gitDir, workTree, named(gitDir, workTree));
      const head = await headState(gitDir, workTree);
      const state = await stateTips(gitDir);
      baseline.set(gitDir, { marks: facts === undefined || facts.unread !== undefined ? undefined : facts.marked, info, history: await historyState(gitDir, workTree, roots), state, ...(guarded ? { guarded } : {}), ...(head ? { head } : {}) });
    }
    // Nested repositories (their index, hooks and configuration are the sweep's, git-sweep.ts): only
    // what the user's later checkout, stash pop or reset there would take (a red team's).
    const nearest = [...nested].filter((repo) => !baseline.has(repo.gitDir)).sort((a, b) => a.workTree.split('/').length - b.workTree.split('/').length);
    for (const repo of nearest.slice(0, MAX_NESTED_REVIEWED)) {
      const commonDir = await commonDirOf(repo.gitDir, roots);
      if (commonDir === undefined) continue;
      const history: HistoryState = { replaces: undefined, grafts: undefined, shallow: undefined, objects: undefined, refs: await listRefs(commonDir, repo.gitDir, repo.workTree), logs: logsState(commonDir, repo.gitDir) };
      const head = await headState(repo.gitDir, repo.workTree);
      baseline.set(repo.gitDir, { marks: undefined, info: new Map(), history, state: await stateTips(repo.gitDir), nested: repo, ...(head ? { head } : {}) });
    }
  } catch {
    // what was not read is unknown: its marks are named after the command, not cleared
  }
  return baseline;
}

const plural = (count: number, one: string, many: string): string => (count === 1 ? one : many);

/** Up to five paths for a message, and how many more. */
function listed(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => JSON.stringify(shownPath(name)));
  return names.length > 5 ? `${shown.join(', ')} and ${names.length - 5} more` : shown.join(', ');
}

const changedSince = async (file: string, since: number): Promise<boolean> => ((await lstat(file).catch(() => undefined))?.ctimeMs ?? -Infinity) >= since;

/**
 * After a command that started at `since`: each reviewed index checked against `before` (the
 * marks before the command; undefined when unknown, as for a command MewCode died during).
 */
export async function checkReview(roots: readonly string[], since: number, before: ReviewBaseline | undefined, named: NamedByConfig = () => []): Promise<ReviewResult> {
  const result: ReviewResult = { notices: [], unchecked: [] };
  const checkedHistory = new Set<string>();
  const nested = [...(before?.values() ?? [])].flatMap((entry) => (entry.nested ? [entry.nested] : []));
  for (const reviewed of [...(await reviewedIndexes(roots)), ...nested]) {
    if (before?.get(reviewed.gitDir)?.nested) {
      await checkPlanted(reviewed, roots, since, before, named, result);
      continue;
    }
    // History first: what it undoes is independent of the index (and of whether it can be read).
    const history = before === undefined ? undefined : (before.get(reviewed.gitDir)?.history ?? NO_HISTORY);
    await checkHistory(reviewed.gitDir, reviewed.workTree, JSON.stringify(shownPath(reviewed.workTree)), roots, since, history, checkedHistory, result);
    await checkMailmap(reviewed.gitDir, reviewed.workTree, JSON.stringify(shownPath(reviewed.workTree)), roots, since, result);
    await checkIndex(reviewed, roots, since, before, result);
    // What the user's discard (restore, checkout, reset --hard) would write that a command may not.
    const earlier = before?.get(reviewed.gitDir);
    const where = JSON.stringify(shownPath(reviewed.workTree));
    await checkStagedGuarded(reviewed.gitDir, reviewed.workTree, where, named(reviewed.gitDir, reviewed.workTree), before === undefined ? undefined : (earlier?.guarded ?? new Map()), earlier?.head, result);
    // …and what their later checkout, stash pop, reset to ORIG_HEAD or --continue would write.
    await checkPlanted(reviewed, roots, since, before, named, result);
  }
  return result;
}

/** The commits a command left for the user's later checkout, stash pop or reset (git-planted-commits.ts). */
async function checkPlanted(reviewed: Reviewed, roots: readonly string[], since: number, before: ReviewBaseline | undefined, named: NamedByConfig, result: ReviewResult): Promise<void> {
  const commonDir = await commonDirOf(reviewed.gitDir, roots);
  if (commonDir === undefined) return;
  const earlier = before?.get(reviewed.gitDir);
  const isGuarded = guardedPath(reviewed.workTree, named(reviewed.gitDir, reviewed.workTree));
  const after = await listRefs(commonDir, reviewed.gitDir, reviewed.workTree);
  const where = JSON.stringify(shownPath(reviewed.workTree));
  await checkPlantedCommits({ ...reviewed, commonDir, where, roots, isGuarded, since, before: { refs: earlier?.history.refs, state: earlier?.state, head: earlier?.head, logs: earlier?.history.logs }, after }, result);
}

async function checkIndex({ gitDir, workTree }: Reviewed, roots: readonly string[], since: number, before: ReviewBaseline | undefined, result: ReviewResult): Promise<void> {
  const where = JSON.stringify(shownPath(workTree));
  const facts = await indexFacts(gitDir, workTree, since - SECOND_MS);
  if (facts.unread !== undefined) {
    result.unchecked.push(`the index of ${where} could not be read (${facts.unread}); what could hide a change there from git status and git diff was not checked`);
    return;
  }
  if (facts.unsafe.length > 0) {
    setAsideIndex(gitDir, where, facts.unsafe, roots, result);
    return;
  }
  const indexChanged = await changedSince(path.join(gitDir, 'index'), since);
  await checkMarks(gitDir, workTree, where, facts.marked, since, before, indexChanged, result);
  await checkRecorded(gitDir, workTree, where, facts.recent.filter((entry) => entry.ctimeSec * 1000 + entry.ctimeNsec / 1e6 >= since - SECOND_MS), roots, since, result);
  if (facts.recentCut) result.unchecked.push(`more files were staged in ${where} than MewCode compares with what the index records; git status and git diff may not show a change to some of them`);
  if (indexChanged && facts.caches.length > 0) {
    // Caches only: git builds them again where they are configured.
    const run = await runHostGit(gitDir, workTree, ['update-index', '--no-untracked-cache', '--no-fsmonitor']);
    if (!run.ok) result.unchecked.push(`the untracked-file and file-monitor caches in the index of ${where} (which git trusts instead of looking) could not be dropped (${run.why}); \`git update-index --no-untracked-cache --no-fsmonitor\` drops them`);
  }
  await checkInfoFiles(gitDir, roots, since, before, result);
}

/**
 * An index holding entries git never writes (git-index-facts.ts unsafeIndexPath): whenever they
 * came, `git checkout -- .`, `git restore .` or `git reset --hard` would write or delete them
 * outside the work tree or inside a git directory. Set aside whole: git then builds a new one.
 */
function setAsideIndex(gitDir: string, where: string, unsafe: readonly string[], roots: readonly string[], result: ReviewResult): void {
  const aside = setAsideEntry(path.join(gitDir, 'index'), roots);
  const what = `the index of ${where} holds ${plural(unsafe.length, 'an entry', 'entries')} git never writes (${listed(unsafe)}), which \`git checkout -- .\`, \`git restore .\` or \`git reset --hard\` would write or delete outside the work tree or inside a git directory`;
  result.notices.push(
    aside !== undefined && 'movedTo' in aside
      ? `${what}. MewCode set the index aside to ${JSON.stringify(shownPath(aside.movedTo))}: \`git reset\` builds a new one from the last commit (what was staged must be staged again)`
      : `${what}. MewCode could not set it aside${aside === undefined ? '' : ` (${aside.refused})`}: run \`git reset\` before any checkout or restore there`,
  );
}

/** Marks (assume-unchanged, skip-worktree): new ones cleared, old ones on changed files named. */
async function checkMarks(gitDir: string, workTree: string, where: string, marked: ReadonlyMap<string, number>, since: number, before: ReviewBaseline | undefined, indexChanged: boolean, result: ReviewResult): Promise<void> {
  if (marked.size === 0) return;
  // A git directory unknown before the command (a submodule it added): every mark is new.
  const known = before === undefined ? undefined : before.has(gitDir) ? before.get(gitDir)?.marks : new Map<string, number>();
  const fresh: [string, number][] = [];
  const old: string[] = [];
  for (const [name, bits] of marked) {
    const added = known === undefined ? 0 : bits & ~(known.get(name) ?? 0);
    if (added !== 0) fresh.push([name, added]);
    else old.push(name);
  }
  if (known === undefined) {
    if (indexChanged) {
      const names = [...marked.keys()];
      result.notices.push(
        `the index of ${where} marks ${listed(names)} as unchanged (assume-unchanged or skip-worktree: git status and git diff do not show ${plural(names.length, 'its changes', 'their changes')}), and MewCode cannot tell whether the command set the ${plural(names.length, 'mark', 'marks')}: \`git ls-files -v | grep '^[a-zS]'\` lists them`,
      );
    }
  } else if (fresh.length > 0) {
    await clearMarks(gitDir, workTree, where, fresh, result);
  }
  // The user's own marks: a file the command changed under one is hidden all the same.
  const changed: string[] = [];
  for (const name of old.slice(0, MAX_MARKED_LOOKED_AT)) if (await changedSince(path.join(workTree, name), since)) changed.push(name);
  if (changed.length > 0) {
    result.notices.push(
      `${listed(changed)} in ${where} ${plural(changed.length, 'is', 'are')} marked as unchanged in the index (assume-unchanged or skip-worktree, from before the command), so git status and git diff do not show that the command changed ${plural(changed.length, 'it', 'them')}: \`git diff --no-index\` against a copy, or clearing the mark, shows the change`,
    );
  }
  if (old.length > MAX_MARKED_LOOKED_AT) result.unchecked.push(`${old.length - MAX_MARKED_LOOKED_AT} files marked as unchanged in the index of ${where} were not looked at for changes the command made`);
}

async function clearMarks(gitDir: string, workTree: string, where: string, fresh: readonly [string, number][], result: ReviewResult): Promise<void> {
  const failures: string[] = [];
  // One flag per run: git applies only the first of --no-assume-unchanged and --no-skip-worktree.
  for (const [bit, flag] of [
    [ASSUME_UNCHANGED, '--no-assume-unchanged'],
    [SKIP_WORKTREE, '--no-skip-worktree'],
  ] as const) {
    const names = fresh.filter(([, bits]) => bits & bit).map(([name]) => name);
    if (names.length === 0) continue;
    const run = await runHostGit(gitDir, workTree, ['update-index', flag, '-z', '--stdin'], { input: Buffer.concat(names.map((name) => Buffer.concat([toBytes(name), Buffer.alloc(1)]))) });
    if (!run.ok) failures.push(`${flag}: ${run.why}`);
  }
  const names = fresh.map(([name]) => name);
  const what = `the command marked ${listed(names)} in the index of ${where} as unchanged (${[...new Set(fresh.flatMap(([, bits]) => [...(bits & ASSUME_UNCHANGED ? ['assume-unchanged'] : []), ...(bits & SKIP_WORKTREE ? ['skip-worktree'] : [])]))].join(', ')}), which hides ${plural(names.length, 'its changes', 'their changes')} from git status and git diff`;
  result.notices.push(
    failures.length === 0
      ? `${what}; MewCode cleared the ${plural(names.length, 'mark', 'marks')}: review ${plural(names.length, 'it', 'them')} with git diff`
      : `${what}, and MewCode could not clear the ${plural(names.length, 'mark', 'marks')} (${failures.join('; ')}): run \`git update-index --no-assume-unchanged\` and \`git update-index --no-skip-worktree\` on ${plural(names.length, 'it', 'them')} before you review`,
  );
}

const REGULAR = 0o100000;
const SYMLINK = 0o120000;
const TYPE = 0o170000;

/**
 * Entries recorded as changed during the command (a `git add`, a checkout, or a hand-written
 * index): where the stat data matches the file (so git would not look at its content), the content
 * must be the object the entry names.
 */
async function checkRecorded(gitDir: string, workTree: string, where: string, recent: readonly RecentEntry[], roots: readonly string[], since: number, result: ReviewResult): Promise<void> {
  const realDirs = new Map<string, Promise<boolean>>();
  // An entry as new as the index itself is "racily clean": git looks at its content anyway.
  const indexMtimeSec = Math.floor(((await lstat(path.join(gitDir, 'index')).catch(() => undefined))?.mtimeMs ?? Infinity) / 1000);
  const suspects: RecentEntry[] = [];
  const tooLarge: string[] = [];
  for (const entry of recent) {
    const type = entry.mode & TYPE;
    if (entry.stage !== 0 || (type !== REGULAR && type !== SYMLINK) || entry.mtimeSec >= indexMtimeSec) continue;
    const file = path.join(workTree, entry.name);
    // Only a file reached without a link on the way: git takes a path through one for deleted.
    const dir = path.dirname(file);
    if (!realDirs.has(dir)) realDirs.set(dir, isRealInside(dir, roots));
    if (!(await realDirs.get(dir))) continue;
    const info = await lstat(file).catch(() => undefined);
    if (!info || (type === SYMLINK ? !info.isSymbolicLink() : !info.isFile())) continue; // git sees a deleted or retyped file itself
    // What git compares before it would look at the content (ctime too: core.trustctime's default).
    const matches = Math.floor(info.mtimeMs / 1000) === entry.mtimeSec && Math.floor(info.ctimeMs / 1000) === entry.ctimeSec && info.size % 2 ** 32 === entry.size && info.ino % 2 ** 32 === entry.ino;
    if (!matches) continue; // git looks at the content itself
    let content: Buffer;
    if (type === SYMLINK) content = toBytes(await readlink(file).catch(() => ''));
    else {
      const read = await readRegularFile(file, MAX_HASHED_BYTES);
      if (read === undefined) continue;
      if ('tooLarge' in read) {
        tooLarge.push(entry.name);
        continue;
      }
      content = read.bytes;
    }
    const hash = nodeCrypto().createHash(entry.oid.length === 64 ? 'sha256' : 'sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
    if (hash !== entry.oid) suspects.push(entry);
  }
  if (tooLarge.length > 0) result.unchecked.push(`${listed(tooLarge)} in ${where} ${plural(tooLarge.length, 'is', 'are')} too large to compare with what the index records for ${plural(tooLarge.length, 'it', 'them')}`);
  if (suspects.length === 0) return;
  // The project's own configuration (a root's, or one no command can write) may name the user's hooks and tools; a submodule's may be the command's.
  const usersOwn = roots.includes(workTree) || !roots.some((root) => isPathWithin(root, gitDir));
  const hidden = await filteredMismatches(gitDir, workTree, suspects, since, usersOwn);
  if (hidden.length === 0) return;
  const names = hidden.map((entry) => entry.name);
  const input = Buffer.concat(hidden.map((entry) => Buffer.concat([Buffer.from(`${entry.mode.toString(8)} ${entry.oid}\t`), toBytes(entry.name), Buffer.alloc(1)])));
  const run = await runHostGit(gitDir, workTree, ['update-index', '-z', '--index-info'], { input });
  const what = `the index of ${where} recorded ${listed(names)} as unchanged although the ${plural(names.length, "file's content differs", "files' content differs")} from what the index holds (stat data written to match the changed ${plural(names.length, 'file', 'files')}), which hides the change from git status and git diff`;
  result.notices.push(run.ok ? `${what}; MewCode cleared the recorded stat data, so git looks at the content again` : `${what}, and MewCode could not clear the recorded stat data (${run.why}): compare ${plural(names.length, 'it', 'each')} with what the index holds (\`git show :<path>\`)`);
}

/**
 * The suspects whose content still differs as git hashes it (its clean filters and line-end
 * conversion applied: an LFS pointer, a CRLF file). A name git cannot be given one per line (a
 * line end in it, bytes that are not UTF-8) counts as differing.
 */
async function filteredMismatches(gitDir: string, workTree: string, suspects: readonly RecentEntry[], since: number, projectsOwn: boolean): Promise<RecentEntry[]> {
  // The filters git runs are named by the configuration: asked only where it is unchanged during
  // the command and names no program git would run to hash a file. The project's own may name its
  // hooks and tools, but not a filter or an include: one that came with a downloaded archive's
  // `.git` would have MewCode's git run its filter on the host (a red team's). A submodule's that
  // names any program is never run: its files' times say nothing of a git directory renamed in.
  for (const name of ['config', 'config.worktree', 'commondir']) {
    const file = path.join(gitDir, name);
    const info = await lstat(file).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : undefined));
    if (info === undefined || (info !== null && (name === 'commondir' || info.ctimeMs >= since))) return [...suspects];
    if (info === null) continue;
    const read = await readSmallFile(file);
    const offence = read === undefined || 'tooLarge' in read ? 'unread' : configOffence(fromBytes(read.bytes));
    if (offence !== undefined && (!projectsOwn || /(?:^|, )(?:filter\.|include|core\.attributesfile|a line|unread)/.test(offence))) return [...suspects];
  }
  const askable = suspects.filter((entry) => isText(entry.name) && !entry.name.includes('\n') && (entry.mode & TYPE) === REGULAR);
  const differing = suspects.filter((entry) => !askable.includes(entry));
  if (askable.length === 0) return differing;
  let out = '';
  const run = await runHostGit(gitDir, workTree, ['hash-object', '--stdin-paths'], { input: Buffer.from(askable.map((entry) => `${entry.name}\n`).join('')), onData: (chunk) => (out += chunk.toString('latin1')) });
  const hashes = out.split('\n');
  askable.forEach((entry, i) => {
    if (!run.ok || hashes[i] !== entry.oid) differing.push(entry);
  });
  return differing;
}

/** The lines of an info file that say something (neither blank nor a comment); `lines` undefined when it cannot be read. */
async function infoLines(gitDir: string, name: string, roots: readonly string[]): Promise<{ lines: ReadonlySet<string> | undefined; changedAt: number }> {
  const reached = await follow(gitDir, name, roots);
  let changedAt = Math.max(-Infinity, ...reached.links.map((link) => link.ctimeMs));
  if (reached.real === undefined) return { lines: reached.blocked ? undefined : new Set(), changedAt };
  if (!reached.inside) return { lines: undefined, changedAt };
  changedAt = Math.max(changedAt, (await lstat(reached.real).catch(() => undefined))?.ctimeMs ?? -Infinity);
  const read = await readSmallFile(reached.real);
  if (read === undefined || 'tooLarge' in read) return { lines: undefined, changedAt };
  const lines = fromBytes(read.bytes)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return { lines: new Set(lines), changedAt };
}

/**
 * `info/exclude` and `info/attributes`: lines added during the command are named (the user's own
 * stay as they are). Without their lines from before (unknown), any that says something in one
 * changed during the command is.
 */
async function checkInfoFiles(gitDir: string, roots: readonly string[], since: number, before: ReviewBaseline | undefined, result: ReviewResult): Promise<void> {
  for (const [name, effect] of Object.entries(INFO_FILES)) {
    const now = await infoLines(gitDir, name, roots);
    if (now.changedAt < since) continue;
    const earlier = before === undefined ? undefined : before.has(gitDir) ? before.get(gitDir)!.info.get(name) : new Set<string>();
    const file = JSON.stringify(shownPath(path.join(gitDir, name)));
    if (now.lines === undefined) {
      result.notices.push(`${file} was changed and cannot be read to check: what it says may ${effect}`);
      continue;
    }
    const added = [...now.lines].filter((line) => !earlier?.has(line));
    if (added.length > 0) result.notices.push(`${file} was changed: ${listed(added)} in it may ${effect}; look at what it says now`);
  }
}
