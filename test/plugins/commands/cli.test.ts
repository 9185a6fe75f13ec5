// The built `mewcode` with the default plugins: `-p "/help"`, `-p "/compact"` and an unknown
// `/name` answer without a model request (the scripted server counts them).
import { prepareCli, removeTempDirs, scenario, singleJsonObject } from '../../cli/helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test.concurrent('-p "/help" lists the built-in commands with their hints: exit 0, stdout only', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['-p', '/help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Commands:\n/);
    expect(r.stdout).toMatch(/^ {2}\/compact \[focus\] +Compact the conversation now/m);
    expect(r.stdout).toMatch(/^ {2}\/help \[command\] +List the available commands, or describe one$/m);
    expect(r.stderr).toBe('');
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('-p "/compact" in the default build: no compaction service, said plainly, exit 1', async () => {
  await scenario([], async (s) => {
    const text = await s.run(['-p', '/compact']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('Cannot compact: this build has no compaction service');
    const json = await s.run(['-p', '/compact', '--output-format', 'json']);
    expect(json.code).toBe(1);
    expect(singleJsonObject(json.stdout)).toMatchObject({ type: 'result', is_error: true, command: 'compact' });
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('an unknown /name: exit 2, the error names it and the available commands, no model request', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['-p', '/frobnicate the code']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('mewcode: unknown command /frobnicate; available: /compact, /help');
    expect(s.requests).toHaveLength(0);
  });
});
