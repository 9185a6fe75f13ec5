// `--max-turns` / `max_turns` through the built CLI: no hard limit at 25, the limit at its boundary,
// Claude Code's `error_max_turns` result, and a clear error for a bad value.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, singleJsonObject } from './helpers.js';
import { PRINT_MAX_TURNS } from '../../types/session.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** n turns that each read a file, then a final answer. */
function readingTurns(n: number) {
  return [
    ...Array.from({ length: n }, (_, i) => ({ toolCalls: [{ id: `call_${i}`, name: 'read_file', input: { path: 'notes.txt' } }] })),
    { text: 'All done.' },
  ];
}

test.concurrent('a 60-turn -p run completes (no hard limit at 25)', async () => {
  await scenario(readingTurns(59), async (s) => {
    writeFileSync(join(s.cwd, 'notes.txt'), 'notes\n');
    // 60 requests and 59 tool calls: longer than one ordinary run takes when test files share the cores.
    const r = await s.run(['-p', 'read it many times', '--output-format', 'json'], { timeoutMs: 55_000 });
    expect(r.code).toBe(0);
    expect(singleJsonObject(r.stdout)).toMatchObject({ subtype: 'success', is_error: false, result: 'All done.', num_turns: 60 });
    expect(s.requests).toHaveLength(60);
  });
}, 60_000);

test.concurrent('--max-turns N: N turns fit, N+1 stop with error_max_turns and exit 1', async () => {
  await scenario(readingTurns(3), async (s) => {
    writeFileSync(join(s.cwd, 'notes.txt'), 'notes\n');
    const r = await s.run(['-p', 'go', '--max-turns', '4', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(singleJsonObject(r.stdout)).toMatchObject({ subtype: 'success', num_turns: 4 });
  });
  await scenario(readingTurns(4), async (s) => {
    writeFileSync(join(s.cwd, 'notes.txt'), 'notes\n');
    const r = await s.run(['-p', 'go', '--max-turns', '4', '--output-format', 'json']);
    expect(r.code).toBe(1);
    expect(singleJsonObject(r.stdout)).toMatchObject({ subtype: 'error_max_turns', is_error: true, num_turns: 4 });
    expect(s.requests).toHaveLength(4);
  });
}, 60_000);

test.concurrent('max_turns in the user configuration is the default; --max-turns overrides it', async () => {
  await scenario(readingTurns(5), async (s) => {
    writeFileSync(join(s.cwd, 'notes.txt'), 'notes\n');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(s.home, '.mewcode'), { recursive: true });
    writeFileSync(join(s.home, '.mewcode', 'config.yaml'), 'max_turns: 2\n');
    const limited = await s.run(['-p', 'go', '--output-format', 'json']);
    expect(singleJsonObject(limited.stdout)).toMatchObject({ subtype: 'error_max_turns', num_turns: 2 });
    const widened = await s.run(['-p', 'go', '--max-turns', '3', '--output-format', 'json']);
    expect(singleJsonObject(widened.stdout)).toMatchObject({ subtype: 'error_max_turns', num_turns: 3 });
  });
}, 60_000);

test.concurrent.each(['0', '-1', 'ten', '2.5', ''])('--max-turns %p is a usage error naming the flag (exit 2, no request)', async (value) => {
  await scenario([{ text: 'never' }], async (s) => {
    const r = await s.run(['-p', 'go', '--max-turns', value]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--max-turns/);
    expect(s.requests).toHaveLength(0);
  });
});

test('the -p default is documented in --help', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['--help']);
    expect(r.stdout).toContain(`--max-turns <n>`);
    expect(r.stdout).toContain(`${PRINT_MAX_TURNS} with -p`);
  });
});
