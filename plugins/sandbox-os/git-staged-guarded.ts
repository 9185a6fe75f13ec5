/**
 * After each sandboxed command: what the user's own discard would write from git. The files the
 * sandbox keeps a command from writing — other tools' settings (`.vscode/tasks.json`…), MewCode's
 * and Claude Code's, the toolchain files, what the git configuration names (a `core.hooksPath`
 * folder's hooks) — have content in the index and in commits too, and that a command can change
 * with git's plumbing (`git update-index --cacheinfo`, `git commit-tree` and `git update-ref`)
 * while the work tree keeps the old file: `git restore .`, `git checkout -- .` or `git reset
 * --hard`, what a user runs to undo an agent's changes, then write it on the host. (Found by a red team.)
 *
 * An entry at such a path that the command staged (changed in the index) or committed (changed
 * between HEAD before and after the command), whose content is not what the work tree holds there,
 * is undone: the index entry set back to what it was (or removed), the branch (or a detached HEAD)
 * set back to where it was, its commits kept and named. What the work tree holds passes: a commit
 * of a settings change the user made is no change there.
 */
import path from 'node:path';
import { hostSettingsAt, hostToolchainFileFor, isToolchainFolderName, mayBeHostToolchainFile } from '../../sdk/host-tool-files.js';
import { nodeCrypto } from '../../types/lazy-builtin.js';
import { isPathWithin } from '../../types/path-within.js';
import { lstat, lstatNow, readlink, readRegularFile } from './byte-fs.js';
import { fromBytes, toBytes } from './byte-names.js';
import { readOwnIndex, stampOf } from './git-index.js';
import { gitOutput, runHostGit, type GitRun } from './git-run.js';
import { shownPath } from './sweep-paths.js';

/** MewCode's, Claude Code's and the MCP server list's names, at any depth. */
const AGENT_NAMES = /(?:^|\/)(?:\.mewcode|\.claude)(?:\/|$)|(?:^|\/)(?:\.mcp\.json|\.mewcode\.(?:ya?ml|json))$/i;

/** A guarded file's content larger than this is taken as different from any entry (none is that large). */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

export type GuardedEntries = ReadonlyMap<string, { mode: number; oid: string }>;

/** A symbolic link's mode in git. */
const LINK_MODE = 0o120000;

/**
 * Whether an entry at a work-tree path (relative, `/`-separated) with this mode is one a command
 * may not write: `named` are the absolute paths the git configuration names. A link is one too
 * where it would stand for a folder holding such paths — above what the configuration names
 * (`.github` for a `core.hooksPath` of `.github/hooks`), a toolchain folder, or a folder the work
 * tree holds — since the user's checkout replaces the folder with it and the tools then read the
 * link's target. (Found by a red team.)
 */
export function guardedPath(workTree: string, named: readonly string[]): (relative: string, mode?: number) => boolean {
  // Asked of every entry of an index that changed: the cheap tests first, the named paths as prefixes.
  const prefixes = named.filter((place) => isPathWithin(workTree, place) && place !== workTree).map((place) => path.relative(workTree, place).split(path.sep).join('/'));
  const above = new Set(prefixes.flatMap((prefix) => prefix.split('/').slice(0, -1).map((_, at, parts) => parts.slice(0, at + 1).join('/'))));
  return (relative, mode) => {
    const base = relative.slice(relative.lastIndexOf('/') + 1);
    if (mayBeHostToolchainFile(base) && hostToolchainFileFor(relative) !== undefined) return true;
    if (prefixes.some((prefix) => relative === prefix || relative.startsWith(`${prefix}/`))) return true;
    if (AGENT_NAMES.test(relative) || hostSettingsAt(relative) !== undefined) return true;
    if (mode === undefined || (mode & 0o170000) !== LINK_MODE) return false;
    return above.has(relative) || isToolchainFolderName(base) || lstatNow(path.join(workTree, relative))?.isDirectory() === true;
  };
}

/** Per git directory: the last read of its guarded entries, kept while the index and what the configuration names are the same. */
const lastRead = new Map<string, { stamp: string; entries: GuardedEntries | undefined }>();

/** The index's stamp and its shared indexes' (a split index's entries are in one: edited there in place, the index file is unchanged; a red team's). */
const indexStamp = async (gitDir: string, named: readonly string[]): Promise<string | undefined> => {
  const stamp = await stampOf(gitDir, path.join(gitDir, 'index')).catch(() => undefined);
  return stamp === undefined ? undefined : `${stamp}\0${named.join('\0')}`;
};

/**
 * The index's entries at guarded paths (`<path>\0<stage>` → mode, object), or undefined when this
 * reader cannot read the index; read again only when the index (or what `named` holds) changed.
 */
export async function guardedEntries(gitDir: string, workTree: string, named: readonly string[]): Promise<GuardedEntries | undefined> {
  const stamp = await indexStamp(gitDir, named);
  const known = lastRead.get(gitDir);
  if (stamp !== undefined && known?.stamp === stamp) return known.entries;
  const isGuarded = guardedPath(workTree, named);
  const read = await readOwnIndex(gitDir, isGuarded).catch(() => undefined);
  // An index this reader is not sure of (split, with an entry offset table, too large…): as git lists it.
  const entries = read === undefined || 'unknown' in read ? await guardedFromGit(gitDir, workTree, isGuarded) : (read.kept ?? new Map());
  if (stamp !== undefined) lastRead.set(gitDir, { stamp, entries });
  return entries;
}

/** The index's guarded entries as git lists them (`ls-files --stage`), or undefined when git cannot. */
async function guardedFromGit(gitDir: string, workTree: string, isGuarded: (relative: string, mode: number) => boolean): Promise<GuardedEntries | undefined> {
  const listing = await gitOutput(gitDir, workTree, ['ls-files', '--stage', '-z']);
  if (!Buffer.isBuffer(listing)) return undefined;
  const entries = new Map<string, { mode: number; oid: string }>();
  for (const record of listing.toString('latin1').split('\0')) {
    const match = /^([0-7]+) ([0-9a-f]+) ([0-3])\t([\s\S]+)$/.exec(record);
    if (!match) continue;
    const name = fromBytes(Buffer.from(match[4]!, 'latin1'));
    const mode = parseInt(match[1]!, 8);
    if (isGuarded(name, mode)) entries.set(`${name}\0${match[3]}`, { mode, oid: match[2]! });
  }
  return entries;
}

/** HEAD before a command: its commit, and the branch it names (undefined when detached). */
export interface HeadState {
  oid: string;
  ref?: string;
}

/**
 * HEAD: read from its files when they are plain (a detached HEAD, a loose ref of exactly an
 * object name, a ref packed once), else asked of git (a ref with trailing text, one packed twice,
 * a link, a reftable: git's answer is the one its reset --hard uses). Undefined when HEAD has no
 * commit yet (or git cannot answer).
 */
export async function headState(gitDir: string, workTree: string): Promise<HeadState | undefined> {
  return (await plainHead(gitDir)) ?? (await headFromGit(gitDir, workTree));
}

async function plainHead(gitDir: string): Promise<HeadState | undefined> {
  const text = async (file: string): Promise<string | undefined> => {
    if (!(await lstat(file).catch(() => undefined))?.isFile()) return undefined;
    const read = await readRegularFile(file, 1024 * 1024).catch(() => undefined);
    return read && 'bytes' in read ? read.bytes.toString('latin1') : undefined;
  };
  // A linked worktree's HEAD is its own; the refs are its common directory's.
  const common = (await text(path.join(gitDir, 'commondir')))?.split(/\r?\n/)[0];
  const refsDir = common ? path.resolve(gitDir, common) : gitDir;
  const head = await text(path.join(gitDir, 'HEAD'));
  if (head === undefined) return undefined;
  if (PLAIN_OID.test(head)) return { oid: head.trim() };
  const ref = /^ref: (refs\/[^\s]+)\n?$/.exec(head)?.[1];
  if (ref === undefined) return undefined;
  const loose = await text(path.join(refsDir, ref));
  if (loose !== undefined) return PLAIN_OID.test(loose) ? { oid: loose.trim(), ref } : undefined;
  if ((await lstat(path.join(refsDir, ref)).catch(() => undefined)) !== undefined) return undefined; // not a file: git's to read
  const packed = (await text(path.join(refsDir, 'packed-refs')))?.split('\n').filter((line) => line.endsWith(` ${ref}`)) ?? [];
  const oid = packed.length === 1 ? packed[0]!.split(' ')[0] : undefined;
  return oid !== undefined && OID.test(oid) ? { oid, ref } : undefined;
}

async function headFromGit(gitDir: string, workTree: string): Promise<HeadState | undefined> {
  const commit = await gitOutput(gitDir, workTree, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']);
  if (!Buffer.isBuffer(commit)) return undefined;
  const oid = commit.toString('latin1').trim();
  const symbolic = await gitOutput(gitDir, workTree, ['symbolic-ref', '-q', 'HEAD']);
  const ref = Buffer.isBuffer(symbolic) ? symbolic.toString('latin1').trim() : '';
  return OID.test(oid) ? { oid, ...(ref !== '' ? { ref } : {}) } : undefined;
}

/** A ref's file holding an object name and nothing else (a line end allowed). */
const PLAIN_OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})\n?$/;
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/**
 * The entry git would record for the work tree's file at `relative`, as `<mode> <object>` (`100755
 * <oid>`; a link: `120000` and its target's), or undefined when there is none. The mode counts: an
 * entry made executable where the work tree's hook is not would have the user's checkout enable it.
 */
export async function workTreeEntry(workTree: string, relative: string, hashBytes: number): Promise<string | undefined> {
  const file = path.join(workTree, relative);
  const info = await lstat(file).catch(() => undefined);
  let bytes: Buffer | undefined;
  if (info?.isSymbolicLink()) bytes = toBytes(await readlink(file).catch(() => ''));
  else if (info?.isFile() && info.size <= MAX_HASHED_BYTES) {
    const read = await readRegularFile(file, MAX_HASHED_BYTES).catch(() => undefined);
    bytes = read && 'bytes' in read ? read.bytes : undefined;
  }
  if (bytes === undefined || info === undefined) return undefined;
  const mode = info.isSymbolicLink() ? '120000' : info.mode & 0o100 ? '100755' : '100644';
  return `${mode} ${nodeCrypto().createHash(hashBytes === 32 ? 'sha256' : 'sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex')}`;
}

/** An entry as workTreeEntry gives it: `<mode in octal> <object>`. */
export const entryKey = (mode: number | string, oid: string): string => `${typeof mode === 'number' ? mode.toString(8) : String(parseInt(mode, 8).toString(8))} ${oid}`;

interface Result {
  notices: string[];
  unchecked: string[];
}

const listed = (names: readonly string[]): string => names.slice(0, 5).map((name) => JSON.stringify(shownPath(name))).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '');

/** HEAD's entries at `names` (`<path>\0<stage>` → mode, object), or undefined when git cannot list them. */
async function headEntries(gitDir: string, workTree: string, names: readonly string[]): Promise<GuardedEntries | undefined> {
  const listing = await gitOutput(gitDir, workTree, ['ls-tree', '-z', '--full-tree', 'HEAD', '--', ...names]);
  if (!Buffer.isBuffer(listing)) return /unknown revision|not a valid object name|bad revision/i.test(listing.why) ? new Map() : undefined;
  const entries = new Map<string, { mode: number; oid: string }>();
  for (const record of listing.toString('latin1').split('\0')) {
    const match = /^(\d+) blob ([0-9a-f]+)\t([\s\S]+)$/.exec(record);
    if (match) entries.set(`${fromBytes(Buffer.from(match[3]!, 'latin1'))}\0` + '0', { mode: parseInt(match[1]!, 8), oid: match[2]! });
  }
  return entries;
}

/**
 * After the command: the index's guarded entries against `before` — what they were before it, or
 * `'head'` when that is unknown but the index changed during it (a nested repository's: each set
 * back to HEAD's, as `git restore --staged` does, when it is neither HEAD's nor the work tree's), or
 * undefined (a command MewCode died during: named, not undone) — and HEAD against `beforeHead`.
 */
export async function checkStagedGuarded(gitDir: string, workTree: string, where: string, named: readonly string[], given: GuardedEntries | 'head' | undefined, headBefore: HeadState | undefined, result: Result): Promise<void> {
  const beforeHead = headBefore?.oid;
  const isGuarded = guardedPath(workTree, named);
  // HEAD: compared only when it moved (read as git reads it; git asked when that is not plain).
  const headNow = headBefore === undefined ? undefined : await headState(gitDir, workTree);
  const headMoved = headBefore !== undefined && (headNow?.oid !== headBefore.oid || headNow?.ref !== headBefore.ref);
  // The index: read again only when it changed (the read before the command is kept by its stamp).
  const kept = await guardedEntries(gitDir, workTree, named);
  const hashBytes = (beforeHead ?? kept?.values().next().value?.oid ?? '').length === 64 ? 32 : 20;
  if (kept === undefined || (given !== 'head' && kept === given)) {
    if (headMoved) await checkCommitted(gitDir, workTree, where, isGuarded, headBefore!, headNow?.oid, hashBytes, result);
    return; // unread (the index review says so), or unchanged
  }
  let before = given === 'head' ? undefined : given;
  if (given === 'head') {
    if (kept.size === 0) return;
    before = await headEntries(gitDir, workTree, [...kept.keys()].map((key) => key.slice(0, key.lastIndexOf('\0'))));
  }
  const planted: { key: string; name: string }[] = [];
  for (const [key, entry] of kept) {
    // Stage 0 only: a conflict's stages are git's own state during a merge.
    if (!key.endsWith('\0' + '0')) continue;
    const was = before?.get(key);
    if (was !== undefined && was.oid === entry.oid && was.mode === entry.mode) continue;
    const name = key.slice(0, key.lastIndexOf('\0'));
    if ((await workTreeEntry(workTree, name, hashBytes)) === entryKey(entry.mode, entry.oid)) continue;
    planted.push({ key, name });
  }
  if (planted.length > 0) {
    const what = `the command staged content for ${listed(planted.map((p) => p.name))} in ${where} that is not what the work tree holds there, and the sandbox keeps commands from writing ${planted.length === 1 ? 'that file' : 'those files'}: \`git restore .\` or \`git checkout -- .\` would have written it on your machine`;
    if (before === undefined) result.notices.push(`${what}; MewCode cannot tell what was staged before the command: \`git diff --cached\` shows it, \`git restore --staged\` unstages it`);
    else {
      const lines = planted.map(({ key, name }) => {
        const was = before.get(key);
        // Mode 0 removes the entry.
        return was === undefined ? `0 ${'0'.repeat(hashBytes * 2)}\t${name}\0` : `${was.mode.toString(8)} ${was.oid}\t${name}\0`;
      });
      const run = await runHostGit(gitDir, workTree, ['update-index', '-z', '--index-info'], { input: Buffer.concat(lines.map((line) => toBytes(line))) });
      result.notices.push(run.ok ? `${what}. MewCode set ${planted.length === 1 ? 'the entry' : 'the entries'} back to what ${planted.length === 1 ? 'it was' : 'they were'} before the command` : `${what}, and MewCode could not set ${planted.length === 1 ? 'it' : 'them'} back (${run.why}): run \`git restore --staged\` on ${planted.length === 1 ? 'it' : 'them'} before any restore or checkout`);
    }
  }
  if (headMoved) await checkCommitted(gitDir, workTree, where, isGuarded, headBefore!, headNow?.oid, hashBytes, result);
}

/** HEAD moved during the command to commits that change a guarded path to content the work tree does not hold: set back. */
async function checkCommitted(gitDir: string, workTree: string, where: string, isGuarded: (relative: string, mode?: number) => boolean, before: HeadState, after: string | undefined, hashBytes: number, result: Result): Promise<void> {
  // No commit now (HEAD pointed at a branch not made yet), or the same commit: nothing reset --hard would write.
  const { oid: beforeHead, ref: beforeRef } = before;
  if (after === undefined || after === beforeHead) return;
  const diff = await gitOutput(gitDir, workTree, ['diff-tree', '-r', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', beforeHead, after]);
  if (!Buffer.isBuffer(diff)) {
    result.unchecked.push(`the commits the command added to ${where} could not be compared with the ones before (${diff.why}); a settings or hook file changed there, which \`git reset --hard\` would write, was not looked for`);
    return;
  }
  // `:<old mode> <new mode> <old> <new> <status>\0<path>\0` per change.
  const fields = diff.toString('latin1').split('\0');
  const planted: string[] = [];
  for (let at = 0; at + 1 < fields.length; at += 2) {
    const header = /^:\d+ (\d+) [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(fields[at]!);
    if (!header) continue;
    const name = fromBytes(Buffer.from(fields[at + 1]!, 'latin1'));
    if (/^0+$/.test(header[2]!) || !isGuarded(name, parseInt(header[1]!, 8))) continue;
    if ((await workTreeEntry(workTree, name, hashBytes)) !== entryKey(header[1]!, header[2]!)) planted.push(name);
  }
  if (planted.length === 0) return;
  const what = `the command committed content for ${listed(planted)} in ${where} (→ ${after}) that is not what the work tree holds there, and the sandbox keeps commands from writing ${planted.length === 1 ? 'that file' : 'those files'}: \`git reset --hard\` would have written it on your machine`;
  const run = await restoreHead(gitDir, workTree, beforeHead, beforeRef, after);
  const shownHead = beforeRef === undefined ? 'HEAD' : shownPath(beforeRef);
  result.notices.push(
    run.ok
      ? `${what}. MewCode set ${shownHead} back to ${beforeHead} (the commits stay: \`git show ${after} -- <file>\` shows what was committed)`
      : `${what}, and MewCode could not set ${shownHead} back (${run.why}): do not reset --hard to it before you review it`,
  );
}

/**
 * HEAD as it was before the command: pointed back at the branch it named (when the command pointed
 * it at another, that one is left as it is), that branch set back to `beforeHead` when it moved, or
 * a detached HEAD set back. Each update names the value it expects, so one changed since is left alone.
 */
async function restoreHead(gitDir: string, workTree: string, beforeHead: string, beforeRef: string | undefined, after: string): Promise<GitRun> {
  if (beforeRef === undefined) return runHostGit(gitDir, workTree, ['update-ref', '-z', '--stdin'], { input: Buffer.from(`option no-deref\0update HEAD\0${beforeHead}\0\0`, 'latin1') });
  const symbolic = await gitOutput(gitDir, workTree, ['symbolic-ref', '-q', 'HEAD']);
  const current = Buffer.isBuffer(symbolic) ? symbolic.toString('latin1').trim() : '';
  if (current !== beforeRef) {
    const pointed = await runHostGit(gitDir, workTree, ['symbolic-ref', 'HEAD', beforeRef]);
    if (!pointed.ok) return pointed;
  }
  const branch = await gitOutput(gitDir, workTree, ['rev-parse', '-q', '--verify', `${beforeRef}^{commit}`]);
  const value = Buffer.isBuffer(branch) ? branch.toString('latin1').trim() : after;
  if (value === beforeHead) return { ok: true };
  return runHostGit(gitDir, workTree, ['update-ref', '-z', '--stdin'], { input: Buffer.from(`update ${beforeRef}\0${beforeHead}\0${value}\0`, 'latin1') });
}
