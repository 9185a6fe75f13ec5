/**
 * Adversarial: redirecting the audit log out of the project with links a repository can commit
 * (or a command can plant): a symlink at `audit.jsonl`, `audit.head`, `audit.lock` or a rotated
 * name, a symlinked `.mewcode/`, a hard link, a FIFO, and a directory swapped for a link while
 * records are written. An attempt escapes if anything outside the project changes.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { headFileOf, lockFileOf, rotatedFile } from '../../plugins/permission-audit/chain.js';
import { verifyAuditLog } from '../../plugins/permission-audit/verify.js';
import { auditDirs, openLog, writeRecords, type AuditDirs } from '../plugins/permission-audit/helpers.js';
import { securityTally } from './attempts.js';

const tally = securityTally('audit-links');
afterAll(() => tally.save());

let dirs: AuditDirs;
let canary: string;
const CANARY = 'canary: must never change\n';
beforeEach(() => {
  dirs = auditDirs();
  canary = path.join(dirs.outside, 'canary.txt');
  writeFileSync(canary, CANARY);
});
afterEach(() => dirs.cleanup());

/** Everything outside the project: names, sizes and contents. */
function outsideState(): string {
  return readdirSync(dirs.outside, { recursive: true })
    .map(String)
    .sort()
    .map((name) => {
      const file = path.join(dirs.outside, name);
      const info = statSync(file);
      return info.isFile() ? `${name}:${info.size}:${readFileSync(file, 'utf8')}` : `${name}/`;
    })
    .join('\n');
}

async function attempt(name: string, plant: () => void, options: { records?: number; maxBytes?: number; expectWarning?: RegExp } = {}): Promise<void> {
  mkdirSync(path.dirname(dirs.file), { recursive: true });
  plant();
  const before = outsideState();
  const { problems } = await writeRecords(dirs.file, options.records ?? 3, 1, { maxBytes: options.maxBytes ?? 5 * 1024 * 1024, keep: 3 });
  const escaped = outsideState() !== before || readFileSync(canary, 'utf8') !== CANARY;
  tally.attempt(name, escaped);
  expect(outsideState()).toBe(before);
  expect(readFileSync(canary, 'utf8')).toBe(CANARY);
  if (options.expectWarning) {
    expect(problems).toHaveLength(1); // reported once, however many records were refused
    expect(problems[0]!.message).toMatch(options.expectWarning);
  }
}

const refused = /refusing to write the audit log through a link/;

test('symlink at audit.jsonl → a file outside', () => attempt('symlink-log', () => symlinkSync(canary, dirs.file), { expectWarning: refused }));

test('dangling symlink at audit.jsonl → a new file outside (must not be created)', () =>
  attempt('dangling-symlink-log', () => symlinkSync(path.join(dirs.outside, 'created.jsonl'), dirs.file), { expectWarning: refused }));

test('relative symlink at audit.jsonl climbing out of the project', () =>
  attempt('relative-symlink-log', () => symlinkSync(path.join('..', '..', 'outside', 'canary.txt'), dirs.file), { expectWarning: refused }));

test('committed symlinked .mewcode/ → a directory outside', () =>
  attempt(
    'symlinked-mewcode-dir',
    () => {
      rmSync(path.dirname(dirs.file), { recursive: true });
      symlinkSync(dirs.outside, path.dirname(dirs.file));
    },
    { expectWarning: refused },
  ));

test('dangling symlinked .mewcode/ → a directory outside that does not exist yet', () =>
  attempt(
    'dangling-symlinked-mewcode-dir',
    () => {
      rmSync(path.dirname(dirs.file), { recursive: true });
      symlinkSync(path.join(dirs.outside, 'new-dir'), path.dirname(dirs.file));
    },
    { expectWarning: /audit log/ },
  ));

test('hard link at audit.jsonl to a file outside', () => attempt('hard-link-log', () => linkSync(canary, dirs.file), { expectWarning: /hard links/ }));

test('FIFO at audit.jsonl (must not hang, nothing written)', () =>
  attempt('fifo-log', () => execFileSync('mkfifo', [dirs.file]), { expectWarning: /not a regular file/ }));

test('symlink at audit.head → a file outside (replaced, never followed)', async () => {
  await attempt('symlink-head', () => symlinkSync(canary, headFileOf(dirs.file)));
  expect(statSync(headFileOf(dirs.file)).isFile()).toBe(true);
});

test('symlink at audit.lock → a file outside', () => attempt('symlink-lock', () => symlinkSync(canary, lockFileOf(dirs.file))));

test('symlink at a rotated name → a file outside, then rotation', () =>
  attempt('symlink-rotated-name', () => symlinkSync(canary, rotatedFile(dirs.file, 1)), { records: 12, maxBytes: 300 }));

test('symlinks at every rotated name and the head temp prefix, then many rotations', () =>
  attempt(
    'symlinks-all-rotated-names',
    () => {
      for (const n of [1, 2, 3, 4]) symlinkSync(canary, rotatedFile(dirs.file, n));
    },
    { records: 30, maxBytes: 300 },
  ));

test('the log resumes, still verifiable, once the planted link is removed', async () => {
  mkdirSync(path.dirname(dirs.file), { recursive: true });
  symlinkSync(canary, dirs.file);
  const opened = openLog(dirs.file);
  opened.log.append({ n: 1 });
  await opened.log.flush();
  rmSync(dirs.file);
  opened.log.append({ n: 2 });
  await opened.log.flush();
  const escaped = readFileSync(canary, 'utf8') !== CANARY;
  tally.attempt('symlink-removed-resume', escaped);
  expect(readFileSync(canary, 'utf8')).toBe(CANARY);
  expect(await verifyAuditLog(dirs.file)).toMatchObject({ ok: true, records: 1 });
});

test('.mewcode/ swapped for a link to outside while records are written (bounded race)', async () => {
  const dir = path.dirname(dirs.file);
  const aside = `${dir}.real`;
  mkdirSync(dir, { recursive: true });
  const before = outsideState();
  const { log } = openLog(dirs.file);
  let swapping = true;
  const swapper = (async () => {
    for (let i = 0; i < 300 && swapping; i++) {
      try {
        renameSync(dir, aside);
        symlinkSync(dirs.outside, dir);
        await new Promise((resolve) => setImmediate(resolve));
        rmSync(dir);
        renameSync(aside, dir);
      } catch {
        // the writer recreated the directory in between: put things back and go on
        if (existsSync(aside) && !existsSync(dir)) renameSync(aside, dir);
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  for (let i = 0; i < 200; i++) {
    log.append({ n: i });
    if (i % 10 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await log.flush();
  swapping = false;
  await swapper;
  const escaped = outsideState() !== before || readFileSync(canary, 'utf8') !== CANARY;
  tally.attempt('mewcode-dir-swap-race', escaped);
  expect(outsideState()).toBe(before);
});
