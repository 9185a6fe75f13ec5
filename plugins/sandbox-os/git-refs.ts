/**
 * After each sandboxed command (from git-history.ts): refs and commits the command made that the
 * user's terminal would print as they are. Git allows C1 characters (U+0080–U+009F, UTF-8 or raw
 * bytes 0x80–0x9F) in ref names, and anything in a commit's or a tag's message and in its author
 * and tagger names; `git branch`, `git tag`, `git log` (its `--decorate` too), `git describe` (a
 * prompt's name for a detached HEAD) and zsh's vcs_info print them unfiltered, so a terminal
 * control sequence there (OSC 52 sets the clipboard to a command a paste runs; U+009D is OSC)
 * reaches the user's terminal. A ref name with a C0 control or DEL is refused by git (it prints
 * "ignoring ref with broken name", with `?` for the control), and HEAD's own file is judged
 * with the other state files prompts print (git-printed.ts).
 *
 * Compared with the refs before the command (listed by the host's git, `git for-each-ref`), in
 * the git directory holding them:
 * - a ref made during the command whose name holds a control character is deleted (`git
 *   update-ref -d` with the value it has, as git-history.ts deletes a replace ref) and named,
 *   with the object it named;
 * - a ref made or moved during the command that leads to commits its old value did not (the
 *   commits the command made or fetched, newest 1,000) of which one holds a control character in
 *   its message or its author or committer (as `git log` prints them: raw bytes that are not
 *   UTF-8 are taken one by one), or a tag (refs/tags/) naming a tag object holding one, is deleted or set back
 *   to its old value and named, with the commit; a detached HEAD moved there is named;
 * - a tag naming a tag is judged down the chain (at most 16 deep): `git show` prints each one;
 * - a notes ref (refs/notes/) made or moved whose tree gained a note blob holding a control
 *   character is deleted or set back: `git log` prints a commit's notes under it as they are, and
 *   the notes commit's own message does not hold them.
 * In a git directory the command made, its refs' names are judged, not its commits (a clone's
 * history is not the command's). Without the state from before (a sweep for a command MewCode
 * died during), what changed is named, not undone.
 *
 * Cost: the refs are listed by git only when something where git keeps them (the loose refs,
 * `packed-refs`, a `reftable`, HEAD) changed since they were last listed (stat'ed: a few files),
 * or changed within a tick of the file system's clock (file-clock.ts: 100 ms on Linux's local
 * file systems, else 2.5 s).
 */
import path from 'node:path';
import { lstatNow, namesNow, tailNow } from './byte-fs.js';
import { fromBytes, isText, printable } from './byte-names.js';
import { hasControl } from './git-printed.js';
import { FINE_TICK_MS, TICK_MS, onFineClockFileSystem, showsSubsecond } from './file-clock.js';
import { runHostGit } from './git-run.js';

/** Ref name (its bytes as latin1) → the object it names. */
export type RefMap = ReadonlyMap<string, string>;

export type Listed = { refs: RefMap; head: string | undefined } | { why: string };

interface Found {
  notices: string[];
  unchecked: string[];
}

/** Commits judged per check at most (the newest first). */
const MAX_JUDGED_COMMITS = 1000;

/**
 * The last listing per common dir (made, or still being made: calls side by side share it), what
 * it saw or why it failed, and where git keeps refs as it was when it was asked for.
 */
const kept = new Map<string, { key: string; listed: Promise<Listed> }>();

/**
 * Where git keeps refs, as stamps: every entry under `refs/` and `reftable/`, `packed-refs`,
 * HEAD, every other file at the top of the git directory. Undefined (never reused) when a link is on the way or a time is too recent to trust: within
 * a tick of the file system's clock (file-clock.ts), the longer one unless every entry is on the
 * git directory's own file system, of a kind with a fine clock, and has a ctime that shows it.
 */
function refStoresKey(commonDir: string, gitDir: string, now: () => number): string | undefined {
  const parts: string[] = [];
  let newest = -Infinity;
  const device = lstatNow(commonDir)?.dev;
  let fineClock = device !== undefined && onFineClockFileSystem(commonDir);
  const add = (file: string): boolean => {
    const info = lstatNow(file);
    if (info?.isSymbolicLink()) return false;
    if (info !== undefined) {
      newest = Math.max(newest, info.ctimeMs, info.mtimeMs);
      fineClock &&= info.dev === device && showsSubsecond(info);
    }
    parts.push(info === undefined ? `${file}:-` : `${file}:${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}`);
    if (info?.isDirectory()) for (const name of namesNow(file) ?? ['?']) if (!add(path.join(file, name))) return false;
    return true;
  };
  for (const file of [path.join(commonDir, 'refs'), path.join(commonDir, 'reftable'), path.join(commonDir, 'packed-refs'), path.join(gitDir, 'HEAD')]) if (!add(file)) return undefined;
  // The files at the top of the git directory: git reads `foo` there as a ref, which a symbolic ref may name (`ref: foo`; a red team's).
  for (const dir of new Set([commonDir, gitDir])) {
    for (const name of namesNow(dir) ?? ['?']) {
      const file = path.join(dir, name);
      // (Not the index: git rewrites it at every status, and never reads it as a ref.)
      if (name === 'HEAD' || name === 'index' || name.startsWith('sharedindex.') || lstatNow(file)?.isDirectory()) continue;
      if (!add(file)) return undefined;
    }
  }
  if (now() - newest < (fineClock ? FINE_TICK_MS : TICK_MS)) return undefined;
  return parts.join('\n');
}

/** Whether anything where git keeps refs changed since `since`. */
function storesChangedSince(commonDir: string, gitDir: string, since: number): boolean {
  const changed = (file: string): boolean => {
    const info = lstatNow(file);
    if (info === undefined) return false;
    if (info.ctimeMs >= since) return true;
    return info.isDirectory() && (namesNow(file) ?? []).some((name) => changed(path.join(file, name)));
  };
  return [path.join(commonDir, 'refs'), path.join(commonDir, 'reftable'), path.join(commonDir, 'packed-refs'), path.join(gitDir, 'HEAD')].some(changed);
}

const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Every ref git sees in the repository, and HEAD's object when it is detached; listed by the
 * host's git unless nothing changed since the last listing. Calls side by side (a turn's bash
 * calls, each taking its state before its command) with the same stamps share one git process.
 * `now`: the clock the stamps' times are compared with (tests set it instead of waiting).
 */
export function listRefs(commonDir: string, gitDir: string, workTree: string, now: () => number = Date.now): Promise<Listed> {
  const key = refStoresKey(commonDir, gitDir, now);
  const known = kept.get(commonDir);
  if (key !== undefined && known?.key === key) return known.listed;
  const listed = listWithGit(commonDir, gitDir, workTree);
  if (key === undefined) {
    kept.delete(commonDir);
    return listed;
  }
  const entry = { key, listed };
  kept.set(commonDir, entry);
  // The same answer while nothing changes, but for a git that did not answer in time.
  const forget = (): void => {
    if (kept.get(commonDir) === entry) kept.delete(commonDir);
  };
  listed.then((result) => ('why' in result && result.why.startsWith('no answer') ? forget() : undefined), forget);
  return listed;
}

async function listWithGit(commonDir: string, gitDir: string, workTree: string): Promise<Listed> {
  // No ref store at all (a git directory being made): git would list nothing; not spawned.
  if (['refs', 'reftable', 'packed-refs'].every((name) => lstatNow(path.join(commonDir, name)) === undefined)) return { refs: new Map(), head: undefined };
  let out = '';
  const run = await runHostGit(gitDir, workTree, ['for-each-ref', '--format=%(objectname) %(refname)'], { onData: (chunk) => (out += chunk.toString('latin1')) });
  if (!run.ok) return { why: run.why };
  // A ref's name holds no space or line end (git refuses them).
  const refs = new Map<string, string>();
  for (const line of out.split('\n')) {
    const at = line.indexOf(' ');
    if (at > 0) refs.set(line.slice(at + 1), line.slice(0, at));
  }
  const head = path.join(gitDir, 'HEAD');
  const headText = tailNow(head, Math.min(lstatNow(head)?.size ?? 0, 4096))?.toString('latin1').trim() ?? '';
  return { refs, head: OID.test(headText) ? headText : undefined };
}

/** A ref name (latin1) for a message, quoted: controls, quotes and bytes that are not UTF-8 shown as escapes. */
export function shownRef(latin1: string): string {
  const text = printable(fromBytes(Buffer.from(latin1, 'latin1')));
  return `"${text.replace(/[\u0000-\u001f\u007f-\u009f"]/g, (c) => (c === '"' ? '\\"' : `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`))}"`;
}

/** The commits reachable from `tips` and not from `not`, newest first and at most MAX_JUDGED_COMMITS, that hold a control character (raw, as git log prints them). */
async function controlCommits(gitDir: string, workTree: string, tips: readonly string[], not: readonly string[]): Promise<{ commits: string[] } | { why: string }> {
  const chunks: Buffer[] = [];
  const input = Buffer.from([...tips, ...not.map((oid) => `^${oid}`)].join('\n') + '\n', 'latin1');
  const run = await runHostGit(gitDir, workTree, ['rev-list', '--header', `--max-count=${MAX_JUDGED_COMMITS}`, '--stdin'], { input, onData: (chunk) => chunks.push(chunk) });
  if (!run.ok) return { why: run.why };
  const commits: string[] = [];
  const out = Buffer.concat(chunks);
  let from = 0;
  while (from < out.length) {
    let end = out.indexOf(0, from);
    if (end < 0) end = out.length;
    const record = out.subarray(from, end);
    const newline = record.indexOf(10);
    // Each record: the commit's name, a line end, the commit as git stores it (its message indented).
    if (newline > 0 && hasControl(record.subarray(newline + 1))) commits.push(record.toString('latin1', 0, newline));
    from = end + 1;
  }
  return { commits };
}

/** Objects read per check at most, and their bytes at most: past either, what is left is not judged (said). */
const MAX_READ_OBJECTS = 1000;
const MAX_READ_BYTES = 16 * 1024 * 1024;
/** Tags of tags followed this deep at most (git peels them all for `git show`, `git log`). */
const MAX_TAG_DEPTH = 16;

type Objects = { objects: Map<string, { type: string; body: Buffer }> } | { why: string };

/** The objects `oids` as git stores them (`cat-file --batch`); a missing one is left out. */
async function readObjects(gitDir: string, workTree: string, oids: readonly string[]): Promise<Objects> {
  const objects = new Map<string, { type: string; body: Buffer }>();
  if (oids.length === 0) return { objects };
  if (oids.length > MAX_READ_OBJECTS) return { why: `more than ${MAX_READ_OBJECTS} objects to read` };
  const chunks: Buffer[] = [];
  let total = 0;
  let over = false;
  const run = await runHostGit(gitDir, workTree, ['cat-file', '--batch'], {
    input: Buffer.from(oids.join('\n') + '\n'),
    onData: (chunk) => {
      total += chunk.length;
      if (total > MAX_READ_BYTES) over = true;
      else chunks.push(chunk);
    },
  });
  if (over) return { why: `more than ${MAX_READ_BYTES / 1024 / 1024} MiB to read` };
  if (!run.ok) return { why: run.why };
  const out = Buffer.concat(chunks);
  let at = 0;
  while (at < out.length) {
    const newline = out.indexOf(10, at);
    if (newline < 0) break;
    const [oid, type, size] = out.toString('latin1', at, newline).split(' ');
    if (size === undefined) {
      at = newline + 1; // "<oid> missing"
      continue;
    }
    objects.set(oid!, { type: type!, body: out.subarray(newline + 1, newline + 1 + Number(size)) });
    at = newline + 1 + Number(size) + 1;
  }
  return { objects };
}

/**
 * Tag objects among `oids` (each with the tag that holds it) whose content (name, tagger, message), or that of a tag they name in
 * turn (a tag of a tag: `git show` prints each one down the chain), holds a control character.
 */
async function controlTags(gitDir: string, workTree: string, oids: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>(); // the ref's own tag → the tag holding the control character
  let pending = new Map(oids.map((oid) => [oid, oid])); // object to read → the ref's own tag it is under
  for (let depth = 0; depth < MAX_TAG_DEPTH && pending.size > 0; depth++) {
    const read = await readObjects(gitDir, workTree, [...pending.keys()]);
    if ('why' in read) break;
    const next = new Map<string, string>();
    for (const [oid, outer] of pending) {
      const object = read.objects.get(oid);
      if (object?.type !== 'tag' || found.has(outer)) continue;
      if (hasControl(object.body)) {
        found.set(outer, oid);
        continue;
      }
      // The header: "object <oid>", "type <type>", …; only a tag is read on (a commit's is judged by rev-list, which peels tags).
      const header = object.body.toString('latin1', 0, Math.max(0, object.body.indexOf('\n\n')));
      const inner = /^object ([0-9a-f]{40,64})\ntype tag$/m.exec(header);
      if (inner) next.set(inner[1]!, outer);
    }
    pending = next;
  }
  return found;
}

/**
 * Notes refs (refs/notes/) the command made or moved: the note blobs their tree gained (`git log`
 * prints a commit's notes under it as they are; the notes commit's own message says nothing of
 * them) that hold a control character. ref → the first such blob, or why it could not be read.
 */
async function controlNotes(gitDir: string, workTree: string, changed: readonly (readonly [string, string, string | undefined])[]): Promise<Map<string, { blob: string } | { why: string }>> {
  const found = new Map<string, { blob: string } | { why: string }>();
  for (const [ref, oid, old] of changed) {
    let out = '';
    // A made ref: every blob in its tree; a moved one: those that differ from its old tree.
    const args = old === undefined ? ['ls-tree', '-r', '-z', oid] : ['diff-tree', '-r', '-z', '--no-renames', old, oid];
    const run = await runHostGit(gitDir, workTree, args, { onData: (chunk) => (out += chunk.toString('latin1')) });
    if (!run.ok) {
      found.set(ref, { why: run.why });
      continue;
    }
    const blobs: string[] = [];
    if (old === undefined) {
      for (const entry of out.split('\0')) {
        const match = /^\d+ blob ([0-9a-f]{40,64})\t/.exec(entry);
        if (match) blobs.push(match[1]!);
      }
    } else {
      for (const entry of out.split('\0')) {
        const match = /^:\d+ \d+ [0-9a-f]{40,64} ([0-9a-f]{40,64}) [AMT]/.exec(entry);
        if (match) blobs.push(match[1]!);
      }
    }
    const read = await readObjects(gitDir, workTree, [...new Set(blobs)]);
    if ('why' in read) {
      found.set(ref, { why: read.why });
      continue;
    }
    const bad = [...read.objects].find(([, object]) => hasControl(object.body));
    if (bad) found.set(ref, { blob: bad[0] });
  }
  return found;
}

/**
 * After a command that started at `since`: the refs of the repository (shown as `where`) against
 * `before` (undefined: unknown; `fresh`: a git directory the command made, whose refs are all new).
 */
export async function checkRefs(commonDir: string, gitDir: string, workTree: string, where: string, since: number, before: Listed | undefined, fresh: boolean, after: Listed, result: Found): Promise<void> {
  if ('why' in after || (before !== undefined && 'why' in before)) {
    // Not listed (a reftable this git cannot read, a path git cannot be given): said when the refs changed during the command.
    const why = 'why' in after ? after.why : (before as { why: string }).why;
    const reftable = lstatNow(path.join(commonDir, 'reftable')) !== undefined ? ' (a reftable, which this git may not read)' : '';
    // (A repository at a path that is not UTF-8 cannot be handed to git at all: its refs are not reviewed.)
    if (!fresh && isText(gitDir) && isText(workTree) && storesChangedSince(commonDir, gitDir, since)) result.unchecked.push(`the refs of ${where}${reftable} could not be listed (${why}), so the names and commits the command made there were not checked for terminal control characters, which \`git branch\` and \`git log\` print as they are`);
    return;
  }
  const earlier = before?.refs;
  const changed = [...after.refs].filter(([ref, oid]) => earlier?.get(ref) !== oid);
  const headMoved = after.head !== undefined && after.head !== before?.head;
  if (changed.length === 0 && !headMoved) return;
  const offences = new Map<string, string>(); // ref → why
  for (const [ref] of changed) if (earlier?.has(ref) !== true && hasControl(Buffer.from(ref, 'latin1'))) offences.set(ref, 'its name holds a terminal control character');
  let badCommits: string[] = [];
  if (!fresh) {
    const tips = [...new Set([...changed.map(([, oid]) => oid), ...(headMoved ? [after.head!] : [])])];
    const old = [...new Set([...(earlier?.values() ?? []), ...(before?.head ? [before.head] : [])])];
    const judged = await controlCommits(gitDir, workTree, tips, old);
    if ('why' in judged) result.unchecked.push(`the commits the command added to ${where} could not be listed (${judged.why}); a terminal control character in a message \`git log\` prints was not checked for`);
    else badCommits = judged.commits;
    // Tag messages are printed for tags (`git tag -n`, `git show`): asked only when a tag changed (no spawn for a commit).
    const tags = await controlTags(gitDir, workTree, [...new Set(changed.filter(([ref]) => ref.startsWith('refs/tags/')).map(([, oid]) => oid))]);
    for (const [ref, oid] of changed) {
      const held = tags.get(oid);
      if (held !== undefined && !offences.has(ref)) offences.set(ref, `it names the tag ${oid}, ${held === oid ? '' : `which leads to the tag ${held}, `}whose name or message holds a terminal control character`);
    }
    // Notes: asked only when a notes ref changed.
    const notes = await controlNotes(gitDir, workTree, changed.filter(([ref]) => ref.startsWith('refs/notes/')).map(([ref, oid]) => [ref, oid, earlier?.get(ref)] as const));
    for (const [ref, note] of notes) {
      if ('blob' in note) {
        if (!offences.has(ref)) offences.set(ref, `it adds the note ${note.blob}, which holds a terminal control character (\`git log\` prints a commit's notes under it)`);
      } else result.unchecked.push(`the notes the command added under ${shownRef(ref)} in ${where} could not be read (${note.why}); a terminal control character in them, which \`git log\` prints, was not checked for`);
    }
    // Which moved refs lead to them: each judged alone (only when there is one to find).
    if (badCommits.length > 0) {
      for (const [ref, oid] of changed) {
        if (offences.has(ref)) continue;
        const alone = await controlCommits(gitDir, workTree, [oid], old);
        if ('commits' in alone && alone.commits.length > 0) offences.set(ref, `it leads to the commit ${alone.commits[0]}, whose message or author holds a terminal control character`);
      }
    }
  }
  const how = '`git branch`, `git tag`, `git log` and a git-aware prompt print it into your terminal as it is, where a control sequence can set your clipboard (OSC 52) or your window title';
  for (const [ref, why] of offences) {
    const oid = after.refs.get(ref)!;
    const old = earlier?.get(ref);
    const what = `the command ${old === undefined ? 'made' : 'moved'} the ref ${shownRef(ref)} in ${where} (→ ${oid}), and ${why}; ${how}`;
    if (before === undefined) {
      result.notices.push(`${what}: look with \`git cat-file -p ${oid} | cat -v\`, and remove it before you list refs or history`);
      continue;
    }
    // The expected value is given, so a ref changed again since is left alone; --no-deref, so a
    // symbolic ref is removed itself, not the branch it names. Bytes on stdin: the name may not be UTF-8.
    const input = Buffer.concat([Buffer.from('option no-deref\0', 'latin1'), Buffer.from(old === undefined ? `delete ${ref}\0${oid}\0` : `update ${ref}\0${old}\0${oid}\0`, 'latin1')]);
    const run = await runHostGit(gitDir, workTree, ['update-ref', '-z', '--stdin'], { input });
    result.notices.push(
      run.ok
        ? `${what}. MewCode ${old === undefined ? 'removed it' : `set it back to ${old}`} (the object stays: \`git cat-file -p ${oid} | cat -v\` shows it safely)`
        : `${what}. MewCode could not ${old === undefined ? 'remove' : 'set back'} it (${run.why}): do so before you list refs or history`,
    );
  }
  if (headMoved && badCommits.length > 0 && !offences.size) {
    result.notices.push(`the command left HEAD of ${where} detached at ${after.head}, which leads to the commit ${badCommits[0]} whose message or author holds a terminal control character; \`git log\` and a git-aware prompt print it into your terminal as it is: check out a branch before you look at history, and read the commit with \`git cat-file -p ${badCommits[0]} | cat -v\``);
  }
}
