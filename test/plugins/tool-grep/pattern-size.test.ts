/**
 * A pattern too large to search is refused at once, alike in both engines: `(?i)[\p{L}\p{N}]{1000}x`
 * compiles to an automaton ripgrep refuses ("Compiled regex exceeds size limit"), and the re2js
 * fallback used to search it anyway, for minutes, blocking the process. And a heavy pattern
 * that is allowed still stops at the deadline, with the event loop turning meanwhile.
 */
import { chmodSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RE2JS } from 're2js';
import { GrepTool, type GrepEngine } from '../../../plugins/tool-grep/grep-tool.js';
import { compilePattern, PATTERN_SIZE_LIMIT, patternWeight } from '../../../plugins/tool-grep/pattern.js';
import { makeTree, removeTree, RG_PATH, RG_REQUIRED, testLimits, toolContext } from './helpers.js';

if (!RG_PATH && RG_REQUIRED) throw new Error('MEWCODE_REQUIRE_RG=1 but `rg` is not on PATH');
const engines: GrepEngine[] = RG_PATH ? ['ripgrep', 're2js'] : ['re2js'];
const HUGE = '(?i)[\\p{L}\\p{N}]{1000}x';

let root: string;
beforeAll(() => {
  root = makeTree({ 'a.txt': `${'a'.repeat(2000)}\n`.repeat(200), 'big.txt': `${'a'.repeat(2000)}\n`.repeat(1500) }, 'mewcode-patsize-');
});
afterAll(() => removeTree(root));

test('the size estimate: ripgrep refuses [\\p{L}\\p{N}]{937}, takes {936}; the limit refuses before it', () => {
  const weight = (p: string): number => patternWeight(RE2JS.compile(p));
  expect(weight('[\\p{L}\\p{N}]{937}')).toBeGreaterThan(PATTERN_SIZE_LIMIT);
  expect(weight('[\\p{L}\\p{N}]{800}')).toBeLessThanOrEqual(PATTERN_SIZE_LIMIT);
  expect(weight('needle')).toBeLessThan(20);
  expect(compilePattern(HUGE, false)).toEqual({ ok: false, error: expect.stringMatching(/too large/) });
});

test.each(engines)('%s engine: a pattern too large is refused within a couple of seconds', async (engine) => {
  const started = Date.now();
  const result = await new GrepTool(testLimits(root), { engine }).execute({ pattern: HUGE, path: 'a.txt' }, toolContext(root));
  expect(Date.now() - started).toBeLessThan(2500);
  expect(result.isError).toBe(true);
  expect(result.content).toMatch(/^grep: the pattern is too large to search/);
});

test('ripgrep’s own size-limit refusal is passed on as the same refusal, not searched by the fallback', async () => {
  const bin = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'mewcode-fake-rg-')));
  const rgPath = path.join(bin, 'rg');
  writeFileSync(rgPath, "#!/bin/sh\nprintf 'regex parse error:\\n    Compiled regex exceeds size limit of 104857600 bytes.\\n' >&2\nexit 2\n");
  chmodSync(rgPath, 0o755);
  try {
    const tool = new GrepTool(testLimits(root), { engine: 'ripgrep', rgPath });
    const result = await tool.execute({ pattern: 'a{3}x' }, toolContext(root));
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^grep: the pattern is too large to search/);
  } finally {
    removeTree(bin);
  }
});

test('re2js engine: a heavy allowed pattern on a 3 MB file stops at the deadline, and timers keep firing', async () => {
  const pattern = '(?i)[\\p{L}\\p{N}]{600}x';
  expect(compilePattern(pattern, false).ok).toBe(true);
  let ticks = 0;
  const timer = setInterval(() => ticks++, 20);
  const started = Date.now();
  try {
    const result = await new GrepTool(testLimits(root), { engine: 're2js', deadlineMs: 1000 }).execute({ pattern, path: 'big.txt' }, toolContext(root));
    const elapsed = Date.now() - started;
    expect(result.content).toMatch(/search stopped at its time limit/);
    expect(elapsed).toBeLessThan(3000);
    expect(ticks).toBeGreaterThanOrEqual(2); // a slice here is one 2000-character line, ≈ 120 ms for this pattern (more under load)
  } finally {
    clearInterval(timer);
  }
});

test('re2js engine: cancelling stops a heavy search promptly', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 300);
  const started = Date.now();
  const result = await new GrepTool(testLimits(root), { engine: 're2js' }).execute({ pattern: '(?i)[\\p{L}\\p{N}]{600}x', path: 'big.txt' }, toolContext(root, controller.signal));
  expect(result.content).toBe('grep was cancelled.');
  expect(Date.now() - started).toBeLessThan(1500);
});
