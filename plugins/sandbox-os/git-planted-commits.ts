/**
 * After each sandboxed command: commits it left where the user's later git commands take them
 * from. Any branch, HEAD's own included (`git switch`, `git reset --hard HEAD~1`), a tag, a
 * remote-tracking branch (`git switch <name>` makes a branch from it), the stash (`git stash pop`),
 * any file git reads as a ref (ORIG_HEAD for `git reset --hard ORIG_HEAD`, the usual undo;
 * FETCH_HEAD; an autostash; `foo` for the name `foo`), reflog lines (`git checkout -`,
 * `stash@{0}`), an operation's state (a rebase's todo list, `onto`, `orig-head`: `--continue`,
 * `--abort`; bisect's start), and the patches of a `git am` in progress: a commit there that
 * changes a guarded file (git-staged-guarded.ts: the files the sandbox keeps commands from
 * writing, a hook or an editor's tasks) to content the work tree does not hold would be written
 * by that command on the host. (Found by red teams, twelve rounds of them.)
 *
 * The commits judged are the ones the command added: reachable from what it made or changed and
 * from no ref or HEAD before it (the newest MAX_JUDGED_COMMITS). A commit plants a path when the
 * path differs from every parent (a root commit: when it is there at all) and its content is not
 * the work tree's. A ref leading to one is set back to its old value or removed, its commits kept
 * and named; a state file or patch is set aside; reflog lines are cut off. A ref naming a tree is
 * judged by its tree. What cannot be judged is undone the same way: a name git refuses to look
 * up, a todo's commit that cannot be found, new commits past the bound, what is too large to read.
 */
import path from 'node:path';
import { entries, headOf, lstat, readlink, readRegularFile, truncateNow } from './byte-fs.js';
import { changedReflogs, type LogsState } from './git-reflogs.js';
import { fromBytes, printable } from './byte-names.js';
import { gitOutput, runHostGit } from './git-run.js';
import { shownRef, type Listed } from './git-refs.js';
import { entryKey, workTreeEntry, type HeadState } from './git-staged-guarded.js';
import { QUARANTINE_SUFFIX, setAsideEntry, shownPath } from './sweep-paths.js';

/** Commits judged per command at most (a fetch can add more: past them, every ref leading to new commits is set back; 1,000 take ≈ 0.1 s to compare). */
const MAX_JUDGED_COMMITS = 5000;
/** Refs naming a tree judged per command at most. */
const MAX_JUDGED_TREES = 16;
/** A state file or patch larger than this is not read (git writes none that large). */
const MAX_STATE_BYTES = 1024 * 1024;

/**
 * What a git directory holds that names commits a later command of the user's checks out or
 * applies: every file at its top that git would read as a ref (git resolves a name `foo` as
 * `$GIT_DIR/foo` first: `ORIG_HEAD`, `FETCH_HEAD`, `MERGE_AUTOSTASH`, `BISECT_START`, and any other
 * a command writes, lower case too), and every file of an operation's state folder (a rebase's
 * `orig-head`, `onto`, `squash-onto`, `autostash`, its todo list; a cherry-pick's `head`; a
 * `git am`'s `orig-head`). HEAD is git-staged-guarded.ts's.
 */
const STATE_FOLDERS = ['rebase-merge', 'rebase-apply', 'sequencer'];
/** Files read per state folder at most (git writes about twenty; a `git am`'s patches are judged apart): past it, the folder is set aside. */
const MAX_STATE_FOLDER_FILES = 64;
/** Files at the top git reads a name from though they are no ref (`git bisect reset` checks out the branch or commit BISECT_START names). */
const READ_WHATEVER_IT_HOLDS = new Set(['BISECT_START']);
/** What git reads as a loose ref: an object name ended by white space or the file's end, or `ref:`. */
const READS_AS_REF = /^(?:(?:[0-9a-f]{40}|[0-9a-f]{64})(?:\s|$)|ref:)/;

/**
 * Refs whose commits no user command checks out: notes (printed, judged by git-refs.ts) and
 * replace refs (removed by git-history.ts). Their new commits are judged all the same (a name
 * elsewhere may lead to them later), but what they held before does not count as judged.
 */
const NOT_CHECKED_OUT = /^refs\/(?:notes|replace)\//;

/** A todo line's verb and what follows it (git's rebase and sequencer todo lists). */
const TODO_LINE = /^[ \t]*(pick|p|reword|r|edit|e|squash|s|fixup|f|revert|merge|m|reset|t)[ \t]+(.*)$/gm;
const PICKING = /^(?:pick|p|reword|r|edit|e|squash|s|fixup|f|revert)$/;

/**
 * The names of commits a state file holds, in order, and those git must find (`required`): a
 * picking line's commit, a merge's `-C` commit. A label (`reset onto`, `merge -C <c> <label>`)
 * is tried as `refs/rewritten/<label>` and as a name (it may not exist yet). A pseudo-ref git
 * reads as a ref may be symbolic (`ref: refs/…`); otherwise each line's first word.
 */
export function stateNames(file: string, text: string): { names: string[]; required: string[] } {
  if (!/(?:^|\/)(?:git-rebase-todo|todo|done)$/.test(file)) {
    const names = text
      .split('\n')
      .map((line) => line.trim())
      .map((line) => (line.startsWith('ref:') ? line.slice(4).trim() : line.split(/[ \t]/)[0]!))
      .filter((name) => name !== '');
    // An object's name anywhere in it too (`update-refs`, `rewritten-list` hold several a line).
    for (const word of text.match(/\b[0-9a-f]{40}(?:[0-9a-f]{24})?\b/g) ?? []) if (!names.includes(word)) names.push(word);
    return { names, required: [] };
  }
  const names: string[] = [];
  const required: string[] = [];
  for (const match of text.matchAll(TODO_LINE)) {
    const words = match[2]!.split('#')[0]!.trim().split(/[ \t]+/).filter(Boolean);
    // `-C <commit>`, `-c <commit>`, or attached (`-C<commit>`: git takes that too; a red team's).
    const rest: string[] = [];
    const before = required.length;
    for (let at = 0; at < words.length; at++) {
      const word = words[at]!;
      if (word === '-C' || word === '-c') {
        if (words[at + 1] !== undefined) required.push(words[++at]!);
      } else if (/^-[Cc]./.test(word)) required.push(word.slice(2));
      else if (!word.startsWith('-')) rest.push(word);
    }
    if (PICKING.test(match[1]!)) {
      // `fixup -C <commit> <subject>`: the option's commit is the one picked.
      if (rest[0] !== undefined && required.length === before) required.push(rest[0]);
      continue;
    }
    if (rest[0] !== undefined) names.push(rest[0], `refs/rewritten/${rest[0]}`);
  }
  return { names: [...required, ...names], required };
}

/**
 * The names of commits a reflog's lines hold (`<old> <new> <who> <when>\t<message>`): both
 * objects (`HEAD@{1}`, `stash@{0}`) and the names a checkout's message gives (`@{-1}`, `git
 * checkout -`: "checkout: moving from <A> to <B>").
 */
export function reflogNames(text: string): string[] {
  const names: string[] = [];
  for (const line of text.split('\n')) {
    const fields = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) /.exec(line);
    if (fields) names.push(fields[1]!, fields[2]!);
    // git takes `@{-1}` as all that stands between "moving from " and the first " to " (a red team's).
    // …with or without the tab before the message (git takes it either way).
    const moved = /checkout: moving from (.*?) to (.*)$/.exec(line);
    if (moved) names.push(moved[1]!, moved[2]!.trim());
  }
  return names;
}

/** Each state file's names of commits (absent files left out), read before and after a command; `unreadable` when too large (or too many) to read. */
export type StateTips = ReadonlyMap<string, { names: readonly string[]; required: readonly string[]; unreadable?: true }>;

export async function stateTips(gitDir: string): Promise<StateTips> {
  const tips = new Map<string, { names: string[]; required: string[]; unreadable?: true }>();
  const read = async (file: string, refsOnly: boolean): Promise<void> => {
    const at = path.join(gitDir, file);
    const head = await headOf(at, 80);
    if (head === undefined) {
      // git reads a link there whose target starts `refs/` as a symbolic ref (a red team's); any other is named by its target.
      const target = (await lstat(at).catch(() => undefined))?.isSymbolicLink() ? await readlink(at).catch(() => undefined) : undefined;
      if (target !== undefined) tips.set(file, { names: [target], required: [] });
      return;
    }
    if (refsOnly && !READS_AS_REF.test(head.bytes.toString('latin1'))) return; // the index, the configuration, a message: no ref
    const bytes = head.size > MAX_STATE_BYTES ? undefined : await readRegularFile(at, MAX_STATE_BYTES).catch(() => undefined);
    if (bytes !== undefined && 'bytes' in bytes) tips.set(file, stateNames(file, bytes.bytes.toString('latin1')));
    else tips.set(file, { names: [], required: [], unreadable: true });
  };
  // Read before and after every command: a listing, then the first bytes of each file at the top.
  // (What the sweep set aside is no state git reads by its name: its new name is left alone.)
  for (const entry of await entries(gitDir).catch(() => [])) {
    if (entry.name.includes(QUARANTINE_SUFFIX)) continue;
    if (STATE_FOLDERS.includes(entry.name)) {
      const names = (await entries(path.join(gitDir, entry.name)).catch(() => [])).map((inner) => inner.name).filter((name) => !/^\d{4,}$/.test(name) && !name.includes(QUARANTINE_SUFFIX));
      if (names.length > MAX_STATE_FOLDER_FILES) tips.set(entry.name, { names: [], required: [], unreadable: true });
      else for (const name of names) await read(`${entry.name}/${name}`, false);
    } else if (!entry.isDirectory() && entry.name !== 'HEAD') await read(entry.name, !READ_WHATEVER_IT_HOLDS.has(entry.name));
  }
  return tips;
}

/** Folders of a git directory whose files are judged elsewhere (refs listed, reflogs, objects, other git directories, state) or no command may write (hooks). */
const NOT_REF_FILES = new Set(['objects', 'refs', 'logs', 'modules', 'worktrees', 'lfs', 'reftable', 'hooks', ...STATE_FOLDERS]);
/** Entries looked at per git directory at most for files read as refs below its top. */
const MAX_REF_FILE_ENTRIES = 5000;

/** Files below the top of `gitDir` (not in NOT_REF_FILES) made or changed since `since` that git would read as a ref, with the names they hold. */
async function changedRefFiles(gitDir: string, since: number): Promise<{ name: string; names: string[]; unreadable?: true }[]> {
  const found: { name: string; names: string[]; unreadable?: true }[] = [];
  let seen = 0;
  const visit = async (relative: string): Promise<void> => {
    for (const entry of await entries(path.join(gitDir, relative)).catch(() => [])) {
      if (++seen > MAX_REF_FILE_ENTRIES) return;
      if (entry.name.includes(QUARANTINE_SUFFIX)) continue;
      const name = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        await visit(name);
        continue;
      }
      const at = path.join(gitDir, name);
      if (((await lstat(at).catch(() => undefined))?.ctimeMs ?? -Infinity) < since) continue;
      const head = await headOf(at, 80);
      if (head === undefined || !READS_AS_REF.test(head.bytes.toString('latin1'))) continue;
      const bytes = head.size > MAX_STATE_BYTES ? undefined : await readRegularFile(at, MAX_STATE_BYTES).catch(() => undefined);
      found.push(bytes !== undefined && 'bytes' in bytes ? { name, names: stateNames(name, bytes.bytes.toString('latin1')).names } : { name, names: [], unreadable: true });
    }
  };
  for (const entry of await entries(gitDir).catch(() => [])) if (entry.isDirectory() && !NOT_REF_FILES.has(entry.name)) await visit(entry.name);
  return found;
}

interface Found {
  notices: string[];
  unchecked: string[];
}

export interface PlantedCheck {
  gitDir: string;
  workTree: string;
  where: string;
  roots: readonly string[];
  isGuarded: (relative: string, mode?: number) => boolean;
  /** The command's start: patches of a `git am` changed since are read. */
  since: number;
  /** Where the refs and their reflogs are (a linked worktree's common directory). */
  commonDir: string;
  before: { refs: Listed | undefined; state: StateTips | undefined; head: HeadState | undefined; logs: LogsState | undefined };
  after: Listed;
}

const FULL_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Where the command left commits: each changed ref, state file or reflog, and the names it holds. */
interface Source {
  kind: 'ref' | 'file' | 'reflog';
  name: string;
  tips: readonly string[];
  /** Names git must find (a todo's picked commits): one this cannot look up is not left. */
  required?: readonly string[];
  /** Too large to read (a state file, a reflog): not left either. */
  unreadable?: true;
  /** A reflog that only grew: cut back to this. */
  grew?: { ino: number; size: number };
}

export async function checkPlantedCommits(check: PlantedCheck, result: Found): Promise<void> {
  const { gitDir, workTree, before, after } = check;
  await checkPatches(check, result);
  if ('why' in after || before.refs === undefined || 'why' in before.refs || before.state === undefined) return; // said by git-refs.ts, or unknown
  const earlier = before.refs.refs;
  // HEAD's own branch too (git-staged-guarded.ts compares its ends; a commit between them is the
  // user's `git reset --hard HEAD~1`: a red team's). Notes and replace refs too: no user command
  // checks them out, but a name elsewhere may lead to what they hold.
  const sources: Source[] = [];
  for (const [ref, oid] of after.refs) if (earlier.get(ref) !== oid) sources.push({ kind: 'ref', name: ref, tips: [oid] });
  // Reflog lines: `git stash pop` takes stash@{0}, `git checkout -` and `reset --hard HEAD@{1}` the lines before.
  if (before.logs !== undefined) {
    for (const log of await changedReflogs(check.commonDir, gitDir, check.since, before.logs)) {
      if ('tooLarge' in log) {
        sources.push({ kind: 'reflog', name: log.file, tips: [], unreadable: true });
        continue;
      }
      const tips = reflogNames(log.added.toString('latin1'));
      if (tips.length > 0) sources.push({ kind: 'reflog', name: log.file, tips, ...(log.grew ? { grew: log.grew } : {}) });
    }
  }
  // A state file that changed; and one whose names are not objects' (`ref: refs/notes/x`, a branch, `:/text`), which may lead elsewhere now that any ref moved.
  const refsMoved = after.refs.size !== earlier.size || [...after.refs].some(([ref, oid]) => earlier.get(ref) !== oid);
  const stateBefore = before.state;
  const stateNow = await stateTips(gitDir);
  // A pseudo-ref changed, made or removed may be what another file's name leads to (`ref: PREV_HEAD`).
  const stateMoved = stateNow.size !== stateBefore.size || [...stateNow].some(([file, tips]) => stateBefore.get(file)?.names.join('\n') !== tips.names.join('\n'));
  for (const [file, tips] of stateNow) {
    const was = stateBefore.get(file);
    const changed = was === undefined || was.unreadable !== tips.unreadable || was.names.join('\n') !== tips.names.join('\n');
    if (changed || tips.unreadable || ((refsMoved || stateMoved || sources.length > 0) && tips.names.some((name) => !FULL_OID.test(name)))) sources.push({ kind: 'file', name: file, tips: tips.names, required: tips.required, ...(tips.unreadable ? { unreadable: true as const } : {}) });
  }
  // Any other file in the git directory made or changed during the command that git would read as
  // a ref: git resolves a name `a/b` as `$GIT_DIR/a/b` first (`branches/x`, named by a reflog line an earlier command wrote).
  for (const file of await changedRefFiles(gitDir, check.since)) sources.push({ kind: 'file', name: file.name, tips: file.names, ...(file.unreadable ? { unreadable: true as const } : {}) });
  if (sources.length === 0) return;
  const resolved = await resolveNames(gitDir, workTree, [...new Set(sources.flatMap((source) => source.tips))]);
  if ('why' in resolved) {
    // Nothing looked up, nothing judged: nothing left (one name git cannot look up stops the whole lookup: `HEAD@{99999}`; a red team's).
    for (const source of sources) await undo(check, source, earlier, `whose names MewCode could not look up to compare (${resolved.why})`, undefined, result);
    return;
  }
  // Only what was judged counts as old: refs (not notes or replace refs, never compared) and HEAD.
  // Not what a state file named: one set aside stays at the top of the git directory (a red team's).
  const judgedBefore = [...earlier].filter(([ref]) => !NOT_CHECKED_OUT.test(ref)).map(([, oid]) => oid);
  const old = [...new Set([...judgedBefore, ...(before.refs.head ? [before.refs.head] : []), ...(before.head ? [before.head.oid] : [])])];
  const commitTips = [...new Set([...resolved.values()].filter((object) => object.type === 'commit').map((object) => object.oid))];
  const planted = new Map<string, string[]>(); // commit or tree → the guarded paths it plants
  const graph = new Map<string, readonly string[]>(); // each new commit judged → its parents
  let unjudged: string | undefined; // why some new commits were not judged
  if (commitTips.length > 0) unjudged = await plantedInNewCommits(check, commitTips, old, graph, planted);
  const trees = [...new Set([...resolved.values()].filter((object) => object.type === 'tree').map((object) => object.oid))];
  for (const tree of trees.slice(0, MAX_JUDGED_TREES)) {
    const paths = await plantedInTree(check, tree);
    if (paths.length > 0) planted.set(tree, paths);
  }
  for (const source of sources) {
    const objects = source.tips.map((tip) => resolved.get(tip)?.oid).filter((oid): oid is string => oid !== undefined);
    const leads = objects.map((oid) => leadsTo(oid, graph, planted)).find((found) => found !== undefined);
    if (leads !== undefined) {
      await undo(check, source, earlier, `leading to ${leads}, which holds content for ${listed(planted.get(leads)!)} that is not what the work tree holds there, and the sandbox keeps commands from writing ${planted.get(leads)!.length === 1 ? 'that file' : 'those files'}`, leads, result);
      continue;
    }
    // What could not be judged is not left for the user's git: a todo naming a commit this cannot find (git may: `:/text`), a new commit past the bound, a tree past it.
    if (source.unreadable) {
      await undo(check, source, earlier, 'too large for MewCode to read and compare', undefined, result);
      continue;
    }
    const missing = source.required?.find((name) => !resolved.has(name));
    // Some new commits not judged (past the bound, or git could not list them): none of what leads to new ones is left.
    const beyond = unjudged !== undefined && objects.length > 0 ? unjudged : undefined;
    const tree = objects.find((oid) => trees.indexOf(oid) >= MAX_JUDGED_TREES);
    const why = missing !== undefined ? `naming ${JSON.stringify(printable(missing))}, which MewCode cannot look up to compare` : beyond !== undefined ? `leading to new commits not all compared (${beyond})` : tree !== undefined ? `naming a tree past the ${MAX_JUDGED_TREES} MewCode compares` : undefined;
    if (why !== undefined) await undo(check, source, earlier, why, undefined, result);
  }
}

const shownSource = (source: Source): string => (source.kind === 'ref' ? shownRef(source.name) : JSON.stringify(shownPath(source.name)));

/**
 * Each name's object (`cat-file --batch-check`, which reads names as git does: `:/text` too), a
 * tag peeled to what it names; names that are no object are left out.
 */
async function resolveNames(gitDir: string, workTree: string, names: readonly string[]): Promise<Map<string, { oid: string; type: string }> | { why: string }> {
  const ask = async (asked: readonly string[]): Promise<Map<string, { oid: string; type: string }> | { why: string }> => {
    const out = await gitOutput(gitDir, workTree, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], Buffer.from(asked.map((name) => `${name}\n`).join(''), 'latin1'));
    if (!Buffer.isBuffer(out)) return out;
    const lines = out.toString('latin1').split('\n');
    const found = new Map<string, { oid: string; type: string }>();
    asked.forEach((name, at) => {
      const match = /^([0-9a-f]{40,64}) (\w+)$/.exec(lines[at] ?? '');
      if (match) found.set(name, { oid: match[1]!, type: match[2]! });
    });
    return found;
  };
  // A name with a line end cannot be asked (one per line; git refuses such names anyway).
  const found = await ask(names.filter((name) => !/[\r\n]/.test(name)));
  if ('why' in found) return found;
  const tags = [...new Set([...found.values()].filter((object) => object.type === 'tag').map((object) => object.oid))];
  if (tags.length === 0) return found;
  const peeled = await ask(tags.map((oid) => `${oid}^{}`));
  if ('why' in peeled) return peeled;
  for (const [name, object] of found) if (object.type === 'tag') {
    const inner = peeled.get(`${object.oid}^{}`);
    if (inner) found.set(name, inner);
    else found.delete(name);
  }
  return found;
}

/** The first commit (or tree) in `planted` that `tip` reaches through the new commits, or undefined. */
function leadsTo(tip: string, graph: ReadonlyMap<string, readonly string[]>, planted: ReadonlyMap<string, readonly string[]>): string | undefined {
  const seen = new Set<string>();
  const pending = [tip];
  while (pending.length > 0) {
    const oid = pending.pop()!;
    if (seen.has(oid)) continue;
    seen.add(oid);
    if (planted.has(oid)) return oid;
    pending.push(...(graph.get(oid) ?? []));
  }
  return undefined;
}

/**
 * The new commits (reachable from `tips`, not from `old`) into `graph`, and those planting a
 * guarded path into `planted`. Returns why not all of them were judged, if so.
 */
async function plantedInNewCommits(check: PlantedCheck, tips: readonly string[], old: readonly string[], graph: Map<string, readonly string[]>, planted: Map<string, string[]>): Promise<string | undefined> {
  const { gitDir, workTree } = check;
  const input = Buffer.from([...tips, ...old.map((oid) => `^${oid}`)].join('\n') + '\n', 'latin1');
  const listed = await gitOutput(gitDir, workTree, ['rev-list', '--ignore-missing', '--parents', `--max-count=${MAX_JUDGED_COMMITS + 1}`, '--stdin'], input);
  if (!Buffer.isBuffer(listed)) return listed.why;
  const commits = listed.toString('latin1').split('\n').filter(Boolean).map((line) => line.split(' '));
  const judged = commits.slice(0, MAX_JUDGED_COMMITS);
  for (const [oid, ...parents] of judged) graph.set(oid!, parents);
  if (judged.length === 0) return undefined;
  // One diff per parent (`-m`), a root commit's whole tree (`--root`): `<commit>\0` then `:<modes> <old> <new> <status>\0<path>\0` per change.
  const diff = await gitOutput(gitDir, workTree, ['diff-tree', '--stdin', '-r', '-z', '-m', '--root', '--no-renames', '--no-ext-diff', '--no-textconv'], Buffer.from(judged.map(([oid]) => `${oid}\n`).join(''), 'latin1'));
  if (!Buffer.isBuffer(diff)) return diff.why;
  const differing = new Map<string, Map<string, { blob: string; parents: number }>>(); // commit → path → its entry (mode and blob), how many parents it differs from
  const fields = diff.toString('latin1').split('\0');
  let commit: string | undefined;
  for (let at = 0; at < fields.length; at++) {
    const field = fields[at]!;
    if (FULL_OID.test(field)) {
      commit = field;
      continue;
    }
    const header = /^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(field);
    if (!header || commit === undefined) continue;
    const name = fromBytes(Buffer.from(fields[++at] ?? '', 'latin1'));
    if (/^0+$/.test(header[2]!) || !check.isGuarded(name, parseInt(header[1]!, 8))) continue;
    const paths = differing.get(commit) ?? new Map<string, { blob: string; parents: number }>();
    differing.set(commit, paths);
    const seen = paths.get(name);
    paths.set(name, { blob: entryKey(header[1]!, header[2]!), parents: (seen?.parents ?? 0) + 1 });
  }
  const hashBytes = judged[0]![0]!.length === 64 ? 32 : 20;
  const inWorkTree = new Map<string, string | undefined>();
  for (const [oid, paths] of differing) {
    const parents = Math.max(1, graph.get(oid)?.length ?? 1);
    const names: string[] = [];
    for (const [name, { blob, parents: differs }] of paths) {
      if (differs < parents) continue; // one parent holds it already: the merge brought it from there
      if (!inWorkTree.has(name)) inWorkTree.set(name, await workTreeEntry(workTree, name, hashBytes));
      if (inWorkTree.get(name) !== blob) names.push(name);
    }
    if (names.length > 0) planted.set(oid, names);
  }
  return commits.length > MAX_JUDGED_COMMITS ? `more than ${MAX_JUDGED_COMMITS} new commits: the oldest were not looked at` : undefined;
}

/** The guarded paths of a tree (a ref naming one: `git checkout <ref> -- .` writes it) holding content the work tree does not. */
async function plantedInTree(check: PlantedCheck, tree: string): Promise<string[]> {
  const listing = await gitOutput(check.gitDir, check.workTree, ['ls-tree', '-r', '-z', '--full-tree', tree]);
  if (!Buffer.isBuffer(listing)) return [];
  const names: string[] = [];
  for (const record of listing.toString('latin1').split('\0')) {
    const match = /^(\d+) blob ([0-9a-f]+)\t([\s\S]+)$/.exec(record);
    if (!match) continue;
    const name = fromBytes(Buffer.from(match[3]!, 'latin1'));
    if (check.isGuarded(name, parseInt(match[1]!, 8)) && (await workTreeEntry(check.workTree, name, match[2]!.length === 64 ? 32 : 20)) !== entryKey(match[1]!, match[2]!)) names.push(name);
  }
  return names;
}

const listed = (names: readonly string[]): string => names.slice(0, 5).map((name) => JSON.stringify(shownPath(name))).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');

/** What takes a source's commits: said in the notice. */
function takenBy(source: Source): string {
  if (source.kind === 'ref') {
    if (source.name === 'refs/stash') return '`git stash pop`';
    if (source.name.startsWith('refs/remotes/')) return '`git switch` or `git merge` of that branch';
    return source.name.startsWith('refs/tags/') ? '`git checkout` of that tag' : '`git switch` to that branch or a merge of it';
  }
  if (source.kind === 'reflog') return source.name.endsWith('/logs/refs/stash') ? '`git stash pop`' : '`git checkout -` or `git reset --hard HEAD@{1}`';
  if (source.name === 'ORIG_HEAD') return '`git reset --hard ORIG_HEAD`';
  if (source.name === 'FETCH_HEAD') return '`git merge FETCH_HEAD`';
  if (source.name.endsWith('AUTOSTASH') || source.name.endsWith('autostash')) return 'the `git commit` that ends the merge, or the `--continue` or `--abort` of the operation in progress (it applies the autostash)';
  if (source.name === 'BISECT_START') return '`git bisect reset`';
  return '`--continue` or `--abort` of the operation in progress';
}

async function undo(check: PlantedCheck, source: Source, earlier: ReadonlyMap<string, string>, why: string, commit: string | undefined, result: Found): Promise<void> {
  const holder = source.kind === 'ref' ? `the ref ${shownRef(source.name)}` : source.kind === 'reflog' ? `reflog lines in ${JSON.stringify(shownPath(source.name))}` : `${JSON.stringify(shownPath(source.name))} in the git directory`;
  const what = `the command left ${holder} of ${check.where} ${why}: ${takenBy(source)} would have written what it holds on your machine`;
  const look = commit === undefined ? '' : ` (\`git show ${commit} -- <file>\` shows what was there)`;
  if (source.kind === 'reflog' && source.grew !== undefined && !source.unreadable) {
    // Only what the command added goes: the file back to its size before it.
    const cut = truncateNow(source.name, source.grew.ino, source.grew.size);
    result.notices.push(cut ? `${what}. MewCode cut the lines it added off (the reflog is back to its ${source.grew.size} bytes from before the command)${look}` : `${what}. MewCode could not cut them off: do not check out or reset to an entry of it before you review it`);
    return;
  }
  if (source.kind !== 'ref') {
    const aside = setAsideEntry(source.kind === 'reflog' ? source.name : path.join(check.gitDir, source.name), check.roots);
    result.notices.push(aside !== undefined && 'movedTo' in aside ? `${what}. MewCode set it aside to ${JSON.stringify(shownPath(aside.movedTo))}${look}` : `${what}. MewCode could not set it aside${aside === undefined ? '' : ` (${aside.refused})`}: do not continue, abort or reset to it before you review it`);
    return;
  }
  const now = source.tips[0]!;
  const old = earlier.get(source.name);
  // The value expected is given (one changed since is left alone); --no-deref: a symbolic ref is removed itself.
  const input = Buffer.from(`option no-deref\0${old === undefined ? `delete ${source.name}\0${now}\0` : `update ${source.name}\0${old}\0${now}\0`}`, 'latin1');
  const run = await runHostGit(check.gitDir, check.workTree, ['update-ref', '-z', '--stdin'], { input });
  result.notices.push(
    run.ok
      ? `${what}. MewCode ${old === undefined ? 'removed it' : `set it back to ${old}`} (the commits stay${commit === undefined ? '' : `: \`git show ${commit} -- <file>\` shows what was there`})`
      : `${what}, and MewCode could not ${old === undefined ? 'remove it' : 'set it back'} (${run.why}): do not check it out before you review it`,
  );
}

/** The patches of a `git am` in progress (`rebase-apply/0001`…) changed during the command: one touching a guarded path is set aside. */
async function checkPatches(check: PlantedCheck, result: Found): Promise<void> {
  const dir = path.join(check.gitDir, 'rebase-apply');
  const names = (await entries(dir).catch(() => [])).map((entry) => entry.name).filter((name) => /^\d{4,}$/.test(name));
  if (names.length === 0) return;
  const options = await readRegularFile(path.join(dir, 'apply-opt'), MAX_STATE_BYTES).catch(() => undefined);
  const directory = options !== undefined && 'bytes' in options ? /--directory=(\S+)/.exec(options.bytes.toString('latin1'))?.[1]?.replace(/^'|'$/g, '') : undefined;
  for (const name of names) {
    const file = path.join(dir, name);
    if (((await lstat(file).catch(() => undefined))?.ctimeMs ?? -Infinity) < check.since) continue;
    const read = await readRegularFile(file, MAX_STATE_BYTES).catch(() => undefined);
    const text = read !== undefined && 'bytes' in read ? read.bytes.toString('latin1') : undefined;
    // A mail whose body is encoded (base64, quoted-printable): `git am` decodes it before applying, this reads no paths in it (a red team's).
    // …or reflowed (`format=flowed` joins soft-broken lines), or in a character set mailinfo converts, or in parts.
    const encoded = text !== undefined && (/^content-transfer-encoding:[ \t]*(?!(?:7bit|8bit|binary)[ \t]*$)\S/im.test(text) || /format[ \t]*=[ \t]*"?flowed|multipart\/|charset[ \t]*=[ \t]*"?(?!(?:us-ascii|utf-8|iso-8859-1|latin1)\b)[\w-]/i.test(text));
    const guarded = text === undefined || encoded ? [] : patchedPaths(text, directory).filter(check.isGuarded);
    if (text !== undefined && !encoded && guarded.length === 0) continue;
    const why = text === undefined ? 'that could not be read to check' : encoded ? 'whose body is encoded or reflowed, so MewCode cannot read which files it changes' : `that changes ${listed([...new Set(guarded)])}, which the sandbox keeps commands from writing`;
    const aside = setAsideEntry(file, check.roots);
    const what = `the command left the patch ${JSON.stringify(shownPath(path.join('rebase-apply', name)))} of a \`git am\` in progress in ${check.where} ${why}: \`git am --continue\` would have applied it on your machine`;
    result.notices.push(aside !== undefined && 'movedTo' in aside ? `${what}. MewCode set it aside to ${JSON.stringify(shownPath(aside.movedTo))}` : `${what}. MewCode could not set it aside${aside === undefined ? '' : ` (${aside.refused})`}: run \`git am --abort\``);
  }
}

/**
 * Every path a patch could write, taken wide: each name its headers give (quoted or not, from each
 * place a `diff --git` line could split), with up to three leading folders stripped (`-p`) and
 * under the `--directory` git am was given.
 */
export function patchedPaths(text: string, directory?: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/^(?:diff --git |\+\+\+ |--- |rename to |rename from |copy to |copy from )(.+)$/gm)) {
    const rest = match[1]!;
    const parts = [rest, ...[...rest.matchAll(/ "?[^ "]*\//g)].map((split) => rest.slice(split.index! + 1))];
    for (const part of parts) names.push(unquoted(part.trim()));
  }
  const paths = new Set<string>();
  for (const name of names) {
    const folders = name.split('/');
    for (let strip = 0; strip <= Math.min(3, folders.length - 1); strip++) {
      const stripped = folders.slice(strip).join('/');
      paths.add(stripped);
      if (directory) paths.add(`${directory.replace(/\/+$/, '')}/${stripped}`);
    }
  }
  return [...paths];
}

/** A C-quoted patch name (`"a/\\303\\251"`) as bytes read as a path; an unquoted one as it is. */
function unquoted(name: string): string {
  if (!name.startsWith('"')) return fromBytes(Buffer.from(name, 'latin1'));
  // Up to the first quote not escaped: `"a/x" "b/y"` is two names.
  const body = /^"((?:[^"\\]|\\.)*)/.exec(name)![1]!;
  const bytes = body.replace(/\\([0-7]{3}|.)/g, (_, code: string) => (code.length === 3 ? String.fromCharCode(parseInt(code, 8)) : ({ n: '\n', t: '\t' } as Record<string, string>)[code] ?? code));
  return fromBytes(Buffer.from(bytes, 'latin1'));
}
