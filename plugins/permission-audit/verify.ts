/**
 * `mewcode audit verify [--file F]`: checks the audit log's hash chain and its anchor (format in
 * chain.ts). Loaded by bin/cli.ts without the kernel or any plugin: Node built-ins and chain.ts only.
 *
 * What it detects, given the files as they are now:
 * - a line edited, deleted, inserted or moved anywhere except as the very last line (the next
 *   line's `prev` no longer matches) — including a line appended with `echo >>` or a forged
 *   record without the right `prev`;
 * - the last line edited, lines cut from the end, or lines appended after MewCode's last write
 *   (they disagree with `audit.head`), and a log erased while its anchor remains;
 * - a rotated file removed, replaced or shortened (the current file's `rotation` record counts
 *   the rotated files, and each names its predecessor's record count and last line hash);
 * - records written after MewCode found its anchor missing (`anchor_lost`): lines before them
 *   could have been cut unseen.
 * - with `anchor` (the CLI and doctor always give it): a log MewCode did not write on this machine
 *   (no anchor in `~/.mewcode/audit/` — a log the repository brought, or one copied in), and a
 *   log rewritten, however consistently, since MewCode last wrote it (it no longer matches the
 *   user's copy of the head, which the project cannot write).
 * What it cannot detect: someone able to write the user's own `~/.mewcode/audit/` as well as the
 * project can rebuild both (the hash is unkeyed); so can one who deletes the log, its rotated
 * files and both anchors together — keeping bash from writing there is the job of the sandbox and
 * the protected-path rule. Rotated files older than the kept ones are dropped by design and are
 * not missed; so are rotated files removed just before the next rotation (they look the same).
 */
import { lstat, readFile } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import { anchorFileOf, GENESIS, hashLine, headFileOf, isHash, parseHead, rotatedFile } from './chain.js';

export type VerifyResult =
  | { ok: true; records: number; files: number }
  | { ok: false; file: string; line: number; reason: string }
  | { ok: 'missing'; file: string };

/** One parsed file of the chain. */
interface ChainFile {
  file: string;
  lines: string[];
  /** undefined where a line is not a JSON object. */
  records: (Record<string, unknown> | undefined)[];
  bytes: number;
  /** The last line has no newline (cut mid-write, or edited). */
  unterminated: boolean;
}

export interface VerifyOptions {
  /** The user's own copy of the head (chain.ts `anchorFileOf`): the log must match it. */
  anchor?: string;
}

export async function verifyAuditLog(file: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  const headFile = headFileOf(file);
  const current = await readChainFile(file);
  if (typeof current === 'string') return { ok: false, file, line: 1, reason: current };
  if (current === undefined) {
    const head = await readHead(headFile);
    if (typeof head === 'object' && head.records > 0) {
      return { ok: false, file, line: 1, reason: `missing: the log was erased (${path.basename(headFile)} anchors ${head.records} records)` };
    }
    return { ok: 'missing', file };
  }

  // Which rotated files must exist: the current file's rotation record counted them.
  const first = current.records[0];
  const expectedOlder = first?.type === 'rotation' && typeof first.segment === 'number' && typeof first.kept === 'number' ? Math.min(first.kept, first.segment) : 0;
  const chain: ChainFile[] = [];
  for (let n = expectedOlder; n >= 1; n--) {
    const older = rotatedFile(file, n);
    const read = await readChainFile(older);
    if (read === undefined) return { ok: false, file: older, line: 1, reason: `missing: ${path.basename(file)} line 1 says ${expectedOlder} rotated files follow it` };
    if (typeof read === 'string') return { ok: false, file: older, line: 1, reason: read };
    chain.push(read);
  }
  chain.push(current);

  let previous: { file: ChainFile; segment: number } | undefined;
  for (const [index, part] of chain.entries()) {
    const bad = checkLines(part, previous, index === 0);
    if (typeof bad === 'object') return { ok: false, file: part.file, ...bad };
    previous = { file: part, segment: bad };
  }

  const anchor = await checkAnchor(current, headFile, previous?.segment ?? 0);
  if (anchor) return { ok: false, file, ...anchor };
  if (options.anchor !== undefined) {
    const own = await checkAnchor(current, options.anchor, previous?.segment ?? 0, 'the anchor in your ~/.mewcode/audit');
    if (own) return { ok: false, file, ...own };
  }
  return { ok: true, records: chain.reduce((sum, part) => sum + part.lines.length, 0), files: chain.length };
}

/**
 * Checks one file's lines and its link to the previous file; returns the file's segment or the
 * first bad line.
 */
function checkLines(part: ChainFile, previous: { file: ChainFile; segment: number } | undefined, oldest: boolean): number | { line: number; reason: string } {
  let segment = 0;
  for (const [i, line] of part.lines.entries()) {
    const number = i + 1;
    const record = part.records[i];
    if (part.unterminated && i === part.lines.length - 1) {
      return { line: number, reason: 'incomplete line: the file does not end with a newline (a write was cut short, or the file was edited)' };
    }
    if (record === undefined) return { line: number, reason: describeBadJson(line) };
    if (!isHash(record.prev)) return { line: number, reason: 'no valid "prev" hash: the record was not written by MewCode (or the log predates the chain)' };
    if (record.type === 'anchor_lost') {
      return { line: number, reason: `the anchor was missing when this record was written (${String(record.reason)}): lines before it could have been cut from the end unseen` };
    }
    if (i > 0) {
      if (record.type === 'rotation') return { line: number, reason: 'a rotation record in the middle of a file (lines were moved between files)' };
      if (record.prev !== hashLine(part.lines[i - 1]!)) {
        return { line: number, reason: `broken chain: "prev" is not the hash of line ${i} (a line was edited, removed, inserted or moved here)` };
      }
      continue;
    }
    // The first line: the start of the log, or a rotation continuing the previous file.
    if (record.type === 'rotation') {
      const rotation = record as { segment?: unknown; previous?: { file?: unknown; records?: unknown } };
      if (typeof rotation.segment !== 'number' || rotation.segment < 1) return { line: 1, reason: 'a rotation record without a valid segment number' };
      segment = rotation.segment;
      if (previous) {
        const before = previous.file;
        const name = path.basename(before.file);
        if (rotation.segment !== previous.segment + 1) return { line: 1, reason: `broken chain: segment ${rotation.segment} does not follow ${name} (segment ${previous.segment})` };
        if (record.prev !== hashLine(before.lines.at(-1) ?? '')) return { line: 1, reason: `broken chain: "prev" is not the hash of the last line of ${name} (that file was cut, edited or replaced)` };
        if (rotation.previous?.records !== before.lines.length) {
          return { line: 1, reason: `${name} has ${before.lines.length} records but held ${String(rotation.previous?.records)} when it was rotated` };
        }
      } else if (!oldest) {
        return { line: 1, reason: 'broken chain: a rotation record with no previous file' };
      }
      // The oldest kept file continues one that was dropped by design: its own chain is what counts.
    } else if (record.prev !== GENESIS) {
      return {
        line: 1,
        reason: previous
          ? `broken chain: expected a rotation record continuing ${path.basename(previous.file.file)}`
          : 'broken chain: the first record continues an earlier log that is not here (the log was erased or replaced)',
      };
    } else if (previous) {
      return { line: 1, reason: `broken chain: a new log starts here although ${path.basename(previous.file.file)} comes before it` };
    }
  }
  return segment;
}

/** Compares the current file with `audit.head`: the only guard of the end of the log. */
async function checkAnchor(current: ChainFile, headFile: string, segment: number, own?: string): Promise<{ line: number; reason: string } | undefined> {
  const name = own ?? path.basename(headFile);
  const head = await readHead(headFile);
  const count = current.lines.length;
  if (head === undefined && own !== undefined) {
    return {
      line: 1,
      reason: `not anchored on this machine: ${headFile} does not exist, so MewCode did not write this log here (it came with the project or was copied in, or predates anchors) and nothing vouches for it`,
    };
  }
  if (head === undefined) return { line: count, reason: `${name} is missing: the end of the log cannot be checked (it was deleted, or the log was not written by MewCode)` };
  if (typeof head === 'string') return { line: count, reason: `${name} is unusable (${head})` };
  if (head.segment !== segment) return { line: 1, reason: `head mismatch: ${name} anchors segment ${head.segment}, this file is segment ${segment} (a file was replaced)` };
  if (count < head.records) {
    return { line: count + 1, reason: `truncated: ${name} anchors ${head.records} records, the file ends after ${count}` };
  }
  if (count > head.records) {
    return { line: head.records + 1, reason: `not anchored: ${name} ends at ${head.records} records; this line was appended after MewCode's last write` };
  }
  if (hashLine(current.lines.at(-1) ?? '') !== head.last) return { line: count, reason: `head mismatch: the last line is not the one anchored in ${name} (it was edited)` };
  if (current.bytes !== head.bytes) return { line: count, reason: `head mismatch: the file has ${current.bytes} bytes, ${name} anchors ${head.bytes}` };
  return undefined;
}

/** undefined: no such file; string: why it cannot be read as a log. */
async function readChainFile(file: string): Promise<ChainFile | string | undefined> {
  try {
    if ((await lstat(file)).isSymbolicLink()) return 'is a symbolic link: MewCode never writes the audit log through one, so this is not its log';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const text = await readFile(file, 'utf8');
  const lines = text.split('\n');
  // A file ending in a newline leaves one empty string after the split; anything else is a cut line.
  const unterminated = lines.at(-1) !== '';
  if (!unterminated) lines.pop();
  return { file, lines, records: lines.map(parseRecord), bytes: Buffer.byteLength(text), unterminated };
}

function parseRecord(line: string): Record<string, unknown> | undefined {
  if (line === '') return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function describeBadJson(line: string): string {
  if (line === '') return 'bad JSON: an empty line';
  try {
    JSON.parse(line);
    return 'bad JSON: not an object';
  } catch (error) {
    return `bad JSON: ${(error as Error).message}`;
  }
}

async function readHead(headFile: string): Promise<ReturnType<typeof parseHead> | undefined> {
  try {
    if ((await lstat(headFile)).isSymbolicLink()) return 'it is a symbolic link';
    return parseHead(await readFile(headFile, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return (error as Error).message;
  }
}

/**
 * The subcommand: prints the verdict on stdout; exit 0 intact, 1 broken, 2 no log to check.
 * `file` is absolute (bin/cli-args.ts resolves it). The log must match the user's own anchor.
 */
export async function runAuditVerify(file: string, out: { stdout(text: string): void; stderr(text: string): void }, homeDir = os.homedir()): Promise<number> {
  let result: VerifyResult;
  try {
    result = await verifyAuditLog(file, { anchor: anchorFileOf(homeDir, file) });
  } catch (error) {
    out.stderr(`mewcode: cannot read the audit log ${file}: ${(error as Error).message}\n`);
    return 2;
  }
  if (result.ok === 'missing') {
    out.stderr(`mewcode: no audit log at ${file} (nothing has been recorded in this project yet, or give --file)\n`);
    return 2;
  }
  if (result.ok) {
    out.stdout(`audit log OK: ${result.records} records\n`);
    return 0;
  }
  out.stdout(`audit log BROKEN: ${result.file} line ${result.line}: ${result.reason}\n`);
  return 1;
}
