/** A16: the audit log is append-only, hash-chained, rotated without breaking the chain, anchored. */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, truncateSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { anchorFileOf, GENESIS, hashLine, headFileOf, lockFileOf, parseHead, rotatedFile, withPrev } from '../../../plugins/permission-audit/chain.js';
import { verifyAuditLog, runAuditVerify } from '../../../plugins/permission-audit/verify.js';
import { acquireLock, STALE_MS } from '../../../plugins/permission-audit/lock.js';
import { openAuditDirectory } from '../../../plugins/permission-audit/no-follow.js';
import { auditDirs, chainedAfter, lines, openLog, records, writeLines, writeRecords, type AuditDirs } from './helpers.js';

let dirs: AuditDirs;
beforeEach(() => {
  dirs = auditDirs();
});
afterEach(() => dirs.cleanup());

const head = (file: string) => parseHead(readFileSync(headFileOf(file), 'utf8'));

describe('the chain', () => {
  it('each record carries the hash of the line before it; the first carries the genesis value', async () => {
    await writeRecords(dirs.file, 5);
    const text = lines(dirs.file);
    expect(records(dirs.file).map((r) => r.n)).toEqual([1, 2, 3, 4, 5]);
    expect(records(dirs.file)[0]!.prev).toBe(GENESIS);
    for (let i = 1; i < text.length; i++) expect(records(dirs.file)[i]!.prev).toBe(hashLine(text[i - 1]!));
    expect(head(dirs.file)).toEqual({ segment: 0, records: 5, bytes: statSync(dirs.file).size, last: hashLine(text[4]!) });
    expect(await verifyAuditLog(dirs.file)).toEqual({ ok: true, records: 5, files: 1 });
  });

  it('a later writer (a new session) continues the same chain', async () => {
    await writeRecords(dirs.file, 3);
    await writeRecords(dirs.file, 3, 4);
    expect(records(dirs.file).map((r) => r.n)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 6 });
  });

  it('keeps lines whole, in order and chained under a burst of appends', async () => {
    const { log } = openLog(dirs.file);
    for (let i = 0; i < 300; i++) log.append({ i, pad: 'p'.repeat(i) });
    await log.flush();
    expect(records(dirs.file).map((r) => r.i)).toEqual(Array.from({ length: 300 }, (_, i) => i));
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 300 });
  });

  it('two writers in one process, appending at the same time, keep one valid chain', async () => {
    const a = openLog(dirs.file);
    const b = openLog(dirs.file);
    for (let i = 0; i < 50; i++) {
      a.log.append({ w: 'a', i });
      b.log.append({ w: 'b', i });
    }
    await Promise.all([a.log.flush(), b.log.flush()]);
    expect(records(dirs.file)).toHaveLength(100);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 100 });
    expect([...a.problems, ...b.problems]).toEqual([]);
  });

  it('waits while another live process holds the lock, at most STALE_MS, then continues the chain', async () => {
    const { log } = openLog(dirs.file);
    log.append({ first: true });
    const lockFile = lockFileOf(dirs.file);
    // A live holder that never lets go (a stopped process): the writer waits, then breaks the lock.
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((resolve) => holder.once('spawn', resolve));
      writeFileSync(lockFile, `${holder.pid}\n`);
      const started = Date.now();
      log.append({ second: true });
      expect(Date.now() - started).toBeGreaterThanOrEqual(STALE_MS - 50);
      expect(records(dirs.file).map((r) => Object.keys(r)[0])).toEqual(['first', 'second']);
      expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 2 });
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a lock left by a dead process is broken at once', async () => {
    await writeRecords(dirs.file, 1);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(lockFileOf(dirs.file), String(dead.stdout));
    const started = Date.now();
    await writeRecords(dirs.file, 1, 2);
    expect(Date.now() - started).toBeLessThan(STALE_MS / 2);
    expect(existsSync(lockFileOf(dirs.file))).toBe(false);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 2 });
  });

  it('a directory planted at the lock name ends the batch with one warning instead of hanging', async () => {
    await writeRecords(dirs.file, 1);
    mkdirSync(lockFileOf(dirs.file));
    utimesSync(lockFileOf(dirs.file), new Date(0), new Date(0));
    const { problems } = await writeRecords(dirs.file, 2, 2);
    expect(problems.map((p) => p.kind)).toEqual(['write']);
    expect(records(dirs.file)).toHaveLength(1);
  });

  it('acquireLock waits while a live process holds the lock, and takes it once that holder is dead (here: a zombie)', async () => {
    await writeRecords(dirs.file, 1);
    const dir = openAuditDirectory(path.dirname(dirs.file));
    const name = path.basename(lockFileOf(dirs.file));
    const holder = spawn('sleep', ['0.3'], { stdio: 'ignore' });
    await new Promise((resolve) => holder.once('spawn', resolve));
    const stat = readFileSync(`/proc/${holder.pid}/stat`, 'utf8');
    writeFileSync(lockFileOf(dirs.file), `${holder.pid}\n${stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]}\n`);
    const started = Date.now();
    // Synchronous: while it waits, nothing reaps the exited sleep, which stays a zombie — dead all the same.
    const release = acquireLock(dir, name);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(Date.now() - started).toBeLessThan(STALE_MS / 2);
    expect(readFileSync(lockFileOf(dirs.file), 'utf8')).toMatch(new RegExp(`^${process.pid}\n`));
    release();
    expect(existsSync(lockFileOf(dirs.file))).toBe(false);
    dir.close();
  });

  it('withPrev adds prev as the last key of any object', () => {
    expect(JSON.parse(withPrev('{}', GENESIS))).toEqual({ prev: GENESIS });
    expect(JSON.parse(withPrev('{"a":1}', GENESIS))).toEqual({ a: 1, prev: GENESIS });
  });
});

describe('rotation', () => {
  const record = (n: number) => ({ type: 'test', n, text: 'x'.repeat(80) });
  const lineBytes = (n: number, prev = GENESIS) => Buffer.byteLength(withPrev(JSON.stringify(record(n)), prev)) + 1;

  it('rotates exactly at the cap, and the new file starts with a rotation record naming the rotated file', async () => {
    const maxBytes = lineBytes(1) * 3; // exactly three records fit
    const { log } = openLog(dirs.file, { maxBytes, keep: 3 });
    for (let n = 1; n <= 3; n++) log.append(record(n));
    await log.flush();
    expect(statSync(dirs.file).size).toBe(maxBytes); // at the cap: not rotated yet
    expect(existsSync(rotatedFile(dirs.file, 1))).toBe(false);

    log.append(record(4)); // one more byte would pass the cap → rotate first
    await log.flush();
    const rotatedLines = lines(rotatedFile(dirs.file, 1));
    expect(records(rotatedFile(dirs.file, 1)).map((r) => r.n)).toEqual([1, 2, 3]);
    const [rotation, fourth] = records(dirs.file);
    expect(rotation).toMatchObject({ type: 'rotation', segment: 1, kept: 1, previous: { file: 'audit.jsonl.1', records: 3 }, prev: hashLine(rotatedLines[2]!) });
    expect(fourth).toMatchObject({ n: 4, prev: hashLine(lines(dirs.file)[0]!) });
    expect(await verifyAuditLog(dirs.file)).toEqual({ ok: true, records: 5, files: 2 });
  });

  it('keeps `keep` rotated files, each under the cap, and the chain verifies across all of them', async () => {
    const maxBytes = lineBytes(1) * 4;
    const { log } = openLog(dirs.file, { maxBytes, keep: 3 });
    for (let n = 1; n <= 40; n++) log.append(record(n));
    await log.flush();
    const names = readdirSync(path.dirname(dirs.file)).filter((f) => f.startsWith('audit.jsonl')).sort();
    expect(names).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2', 'audit.jsonl.3']);
    for (const name of names) expect(statSync(path.join(path.dirname(dirs.file), name)).size).toBeLessThanOrEqual(maxBytes);
    const kept = [3, 2, 1].map((i) => rotatedFile(dirs.file, i)).concat(dirs.file).flatMap((f) => records(f).filter((r) => r.type === 'test').map((r) => r.n));
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 40 - kept.length + 1 + i));
    const result = await verifyAuditLog(dirs.file);
    expect(result).toMatchObject({ ok: true, files: 4 });
  });

  it('keep 0: the old file is dropped and the chain still verifies', async () => {
    const maxBytes = lineBytes(1) * 2;
    await writeRecords(dirs.file, 5, 1, { maxBytes, keep: 0 });
    expect(existsSync(rotatedFile(dirs.file, 1))).toBe(false);
    expect(records(dirs.file)[0]).toMatchObject({ type: 'rotation', kept: 0, previous: { file: null } });
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, files: 1 });
  });

  it('raising the number of kept files later does not make verify miss files that never existed', async () => {
    await writeRecords(dirs.file, 12, 1, { maxBytes: 400, keep: 1 });
    expect(existsSync(rotatedFile(dirs.file, 2))).toBe(false);
    await writeRecords(dirs.file, 6, 13, { maxBytes: 400, keep: 3 });
    expect(existsSync(rotatedFile(dirs.file, 2))).toBe(true);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true });
  });

  it('a record larger than the cap still goes in (alone in a fresh file), without a rotation loop', async () => {
    const { log } = openLog(dirs.file, { maxBytes: 200, keep: 2 });
    log.append({ small: 1 });
    log.append({ big: 'y'.repeat(500) });
    log.append({ small: 2 });
    await log.flush();
    expect(records(rotatedFile(dirs.file, 2)).map((r) => r.small)).toEqual([1]);
    expect(records(rotatedFile(dirs.file, 1)).map((r) => r.type ?? 'big')).toEqual(['rotation', 'big']);
    expect(records(dirs.file).map((r) => r.type ?? r.small)).toEqual(['rotation', 2]);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 5, files: 3 });
  });
});

describe('verify finds the first bad line', () => {
  const bad = async (line: number, reason: RegExp, file = dirs.file) => {
    const result = await verifyAuditLog(dirs.file);
    expect(result).toMatchObject({ ok: false, file, line });
    expect((result as { reason: string }).reason).toMatch(reason);
  };

  it('an edited line', async () => {
    await writeRecords(dirs.file, 5);
    const text = lines(dirs.file);
    text[2] = text[2]!.replace('record 3', 'record 9');
    writeLines(dirs.file, text);
    await bad(4, /broken chain: "prev" is not the hash of line 3/);
  });

  it('an edited last line (the anchor catches what the chain cannot)', async () => {
    await writeRecords(dirs.file, 3);
    const text = lines(dirs.file);
    text[2] = text[2]!.replace('record 3', 'record 8');
    writeLines(dirs.file, text);
    await bad(3, /head mismatch: the last line is not the one anchored/);
  });

  it('a line deleted from the middle', async () => {
    await writeRecords(dirs.file, 5);
    const text = lines(dirs.file);
    text.splice(1, 1);
    writeLines(dirs.file, text);
    await bad(2, /broken chain/);
  });

  it('the first line deleted', async () => {
    await writeRecords(dirs.file, 4);
    writeLines(dirs.file, lines(dirs.file).slice(1));
    await bad(1, /broken chain: the first record continues an earlier log/);
  });

  it('reordered lines', async () => {
    await writeRecords(dirs.file, 5);
    const text = lines(dirs.file);
    [text[2], text[3]] = [text[3]!, text[2]!];
    writeLines(dirs.file, text);
    await bad(3, /broken chain/);
  });

  it('a truncated tail (lines cut at the end), named by the first missing line', async () => {
    await writeRecords(dirs.file, 6);
    writeLines(dirs.file, lines(dirs.file).slice(0, 4));
    await bad(5, /truncated: audit.head anchors 6 records, the file ends after 4/);
  });

  it('a tail cut mid-line', async () => {
    await writeRecords(dirs.file, 3);
    truncateSync(dirs.file, statSync(dirs.file).size - 10);
    await bad(3, /incomplete line/);
  });

  it('a forged line appended with echo >> (no valid prev)', async () => {
    await writeRecords(dirs.file, 3);
    appendFileSync(dirs.file, '{"type":"decision","tool":"bash","verdict":"allow"}\n');
    await bad(4, /no valid "prev" hash/);
  });

  it('a forged line with a wrong prev', async () => {
    await writeRecords(dirs.file, 3);
    appendFileSync(dirs.file, `${JSON.stringify({ type: 'decision', prev: hashLine('something else') })}\n`);
    await bad(4, /broken chain/);
  });

  it('a forged line correctly chained is still not anchored', async () => {
    await writeRecords(dirs.file, 3);
    appendFileSync(dirs.file, `${chainedAfter(lines(dirs.file)[2]!, { type: 'decision', verdict: 'allow' })}\n`);
    await bad(4, /not anchored: audit.head ends at 3 records/);
  });

  it('bad JSON and empty lines', async () => {
    await writeRecords(dirs.file, 3);
    const text = lines(dirs.file);
    writeLines(dirs.file, [text[0]!, '{not json', ...text.slice(1)]);
    await bad(2, /bad JSON/);
    writeLines(dirs.file, [text[0]!, '', ...text.slice(1)]);
    await bad(2, /bad JSON: an empty line/);
  });

  it('an erased log whose anchor remains', async () => {
    await writeRecords(dirs.file, 3);
    unlinkSync(dirs.file);
    await bad(1, /missing: the log was erased \(audit.head anchors 3 records\)/);
  });

  it('a missing anchor', async () => {
    await writeRecords(dirs.file, 3);
    unlinkSync(headFileOf(dirs.file));
    await bad(3, /audit.head is missing/);
  });

  it('a removed rotated file', async () => {
    const maxBytes = 400;
    await writeRecords(dirs.file, 12, 1, { maxBytes, keep: 3 });
    expect(existsSync(rotatedFile(dirs.file, 3))).toBe(true);
    unlinkSync(rotatedFile(dirs.file, 2));
    await bad(1, /missing: audit.jsonl line 1 says 3 rotated files follow it/, rotatedFile(dirs.file, 2));
  });

  it('a rotated file cut at its end', async () => {
    await writeRecords(dirs.file, 12, 1, { maxBytes: 400, keep: 3 });
    const older = rotatedFile(dirs.file, 1);
    writeLines(older, lines(older).slice(0, -1));
    await bad(1, /"prev" is not the hash of the last line of audit.jsonl.1/);
  });

  it('rotated files swapped', async () => {
    await writeRecords(dirs.file, 12, 1, { maxBytes: 400, keep: 3 });
    const one = readFileSync(rotatedFile(dirs.file, 1));
    writeFileSync(rotatedFile(dirs.file, 1), readFileSync(rotatedFile(dirs.file, 2)));
    writeFileSync(rotatedFile(dirs.file, 2), one);
    await bad(1, /broken chain: segment/, rotatedFile(dirs.file, 2)); // the first out of order, oldest first
  });
});

describe('the writer after tampering', () => {
  it('keeps chaining from what it wrote, so a cut tail stays detectable after new records, and says so once', async () => {
    await writeRecords(dirs.file, 5);
    writeLines(dirs.file, lines(dirs.file).slice(0, 3));
    const { problems } = await writeRecords(dirs.file, 2, 6);
    expect(problems.map((p) => p.kind)).toEqual(['tampered']);
    expect(problems[0]!.message).toMatch(/was changed since MewCode last wrote it/);
    const result = await verifyAuditLog(dirs.file);
    expect(result).toMatchObject({ ok: false, line: 4 });
  });

  it('an erased log that is written again stays detectably erased', async () => {
    await writeRecords(dirs.file, 3);
    unlinkSync(dirs.file);
    const { problems } = await writeRecords(dirs.file, 1, 4);
    expect(problems.map((p) => p.kind)).toEqual(['tampered']);
    const result = await verifyAuditLog(dirs.file);
    expect(result).toMatchObject({ ok: false, line: 1, reason: expect.stringMatching(/continues an earlier log/) });
  });

  it('a deleted anchor next to a log: an anchor_lost record, and verify says the end was unguarded', async () => {
    await writeRecords(dirs.file, 3);
    unlinkSync(headFileOf(dirs.file));
    const { problems } = await writeRecords(dirs.file, 1, 4);
    expect(problems[0]!.message).toMatch(/audit.head is missing: the 3 records already in the audit log .* are not vouched for/);
    expect(records(dirs.file).map((r) => r.type)).toEqual(['test', 'test', 'test', 'anchor_lost', 'test']);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: false, line: 4, reason: expect.stringMatching(/anchor was missing/) });
  });

  it('a forged unterminated line is not glued to the next record', async () => {
    await writeRecords(dirs.file, 2);
    appendFileSync(dirs.file, '{"forged":true}');
    await writeRecords(dirs.file, 1, 3);
    const text = readFileSync(dirs.file, 'utf8').split('\n');
    expect(text[2]).toBe('{"forged":true}');
    expect(JSON.parse(text[3]!)).toMatchObject({ n: 3 });
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: false, line: 3 });
  });
});

describe('runAuditVerify (the subcommand body)', () => {
  const run = async (file: string) => {
    const out = { stdout: '', stderr: '' };
    const code = await runAuditVerify(file, { stdout: (t) => (out.stdout += t), stderr: (t) => (out.stderr += t) }, dirs.home);
    return { code, ...out };
  };

  it('0 and "audit log OK: N records" when intact', async () => {
    await writeRecords(dirs.file, 7, 1, { anchor: anchorFileOf(dirs.home, dirs.file) });
    expect(await run(dirs.file)).toEqual({ code: 0, stdout: 'audit log OK: 7 records\n', stderr: '' });
  });

  it("1 for an intact chain that was not written on this machine (no anchor in the user's ~/.mewcode/audit)", async () => {
    await writeRecords(dirs.file, 7);
    const result = await run(dirs.file);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/line 1: not anchored on this machine: .*\.mewcode\/audit\/[0-9a-f]{32}\.head does not exist/);
  });

  it('1 for a log rewritten consistently (chain and audit.head) after MewCode anchored it', async () => {
    await writeRecords(dirs.file, 3, 1, { anchor: anchorFileOf(dirs.home, dirs.file) });
    const rewritten: string[] = [];
    for (const line of lines(dirs.file)) {
      const record = JSON.parse(line) as Record<string, unknown>;
      delete record.prev;
      rewritten.push(JSON.stringify({ ...record, n: 99, prev: rewritten.length === 0 ? GENESIS : hashLine(rewritten.at(-1)!) }));
    }
    writeLines(dirs.file, rewritten);
    const bytes = statSync(dirs.file).size;
    writeFileSync(headFileOf(dirs.file), `${JSON.stringify({ segment: 0, records: 3, bytes, last: hashLine(rewritten.at(-1)!) })}\n`);
    expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true }); // the project's own head is fooled
    const result = await run(dirs.file);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/the anchor in your ~\/.mewcode\/audit/);
  });

  it('1 naming the first bad line', async () => {
    await writeRecords(dirs.file, 3);
    appendFileSync(dirs.file, 'junk\n');
    const result = await run(dirs.file);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(`audit log BROKEN: ${dirs.file} line 4: bad JSON: ${jsonError('junk')}\n`);
  });

  it('2 when there is no log', async () => {
    const result = await run(path.join(dirs.root, 'nothing.jsonl'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^mewcode: no audit log at /);
  });
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
