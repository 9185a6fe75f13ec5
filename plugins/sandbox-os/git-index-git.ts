/**
 * An index the sweep's own reader is not sure of (git-index.ts), as git itself lists it: `git
 * ls-files --stage --debug -z` gives each entry's mode, object, stage and path, then the stat data
 * and in-memory flags git keeps for it. Run on the host as git-run.ts runs git.
 */
import { fromBytes } from './byte-names.js';
import { ASSUME_UNCHANGED, emptyFacts, MAX_RECENT, noteUnsafe, SKIP_WORKTREE, type IndexRead } from './git-index-facts.js';
import { runHostGit } from './git-run.js';

/** git's in-memory entry flags, as `--debug` prints them. */
const CE_VALID = 0x8000;
const CE_SKIP_WORKTREE = 0x40000000;

/** `<mode> <object> <stage>\t<path>` */
const HEADER = /^([0-7]+) ([0-9a-f]+) ([0-3])\t/;
/** The five lines `--debug` prints after each entry's path. */
const DEBUG = /^ {2}ctime: (\d+):(\d+)\n {2}mtime: (\d+):(\d+)\n {2}dev: (\d+)\tino: (\d+)\n {2}uid: (\d+)\tgid: (\d+)\n {2}size: (\d+)\tflags: ([0-9a-f]+)\n$/;

export async function listedByGit(gitDir: string, workTree: string, why: string, recentSince: number): Promise<IndexRead> {
  const facts = emptyFacts(recentSince);
  // git does not say which extensions the index holds: the caches are taken as there.
  facts.caches.push('UNTR', 'FSMN');
  let rest: Buffer = Buffer.alloc(0);
  let pending: { mode: number; oid: string; stage: number; name: string } | undefined;
  let malformed = false;
  const take = (data: Buffer): Buffer => {
    for (;;) {
      if (pending === undefined) {
        const nul = data.indexOf(0);
        if (nul < 0) return data;
        const record = data.subarray(0, nul);
        data = data.subarray(nul + 1);
        const tab = record.indexOf(0x09);
        const header = HEADER.exec(record.subarray(0, tab + 1).toString('latin1'));
        if (tab < 0 || !header) {
          malformed = true;
          continue;
        }
        pending = { mode: parseInt(header[1]!, 8), oid: header[2]!, stage: Number(header[3]), name: fromBytes(record.subarray(tab + 1)) };
        if (pending.mode === 0o160000) facts.gitlinks.push(pending.name);
        noteUnsafe(facts, pending.name);
      } else {
        // Five lines, each ended by a newline.
        let end = -1;
        for (let line = 0; line < 5; line++) {
          end = data.indexOf(0x0a, end + 1);
          if (end < 0) return data;
        }
        const debug = DEBUG.exec(data.subarray(0, end + 1).toString('latin1'));
        data = data.subarray(end + 1);
        const entry = pending;
        pending = undefined;
        if (!debug) {
          malformed = true;
          continue;
        }
        const flags = parseInt(debug[10]!, 16);
        const marks = (flags & CE_VALID ? ASSUME_UNCHANGED : 0) | (flags & CE_SKIP_WORKTREE ? SKIP_WORKTREE : 0);
        if (marks !== 0) facts.marked.set(entry.name, marks);
        const ctimeSec = Number(debug[1]);
        const ctimeNsec = Number(debug[2]);
        if (ctimeSec * 1000 + ctimeNsec / 1e6 >= recentSince) {
          if (facts.recent.length === MAX_RECENT) facts.recentCut = true;
          else facts.recent.push({ ...entry, ctimeSec, ctimeNsec, mtimeSec: Number(debug[3]), ino: Number(debug[6]), size: Number(debug[9]) });
        }
      }
    }
  };
  const run = await runHostGit(gitDir, workTree, ['ls-files', '--stage', '--debug', '-z'], { onData: (chunk) => (rest = take(Buffer.concat([rest, chunk]))) });
  if (!run.ok) return { ...facts, unread: `${why}, and git could not list its entries (${run.why})` };
  if (malformed || pending !== undefined || rest.length > 0) return { ...facts, unread: `${why}, and git's listing of its entries could not be read` };
  return facts;
}
