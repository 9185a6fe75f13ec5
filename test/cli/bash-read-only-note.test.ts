/**
 * A sandboxed command whose write hits a protected path fails with a bare "Read-only file system";
 * the bash result names the protected path and how to go on (plugins/tool-bash/read-only-note.ts).
 * The write is in a script, as in Claude Code's ralph-wiggum plugin writing `.claude/ralph-loop.local.md`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test.concurrent('a script writing .claude/<plugin>.local.md is told which protected path refused it', async () => {
  const turns = [{ toolCalls: [{ id: 'b', name: 'bash', input: { command: 'sh ./setup.sh' } }] }, { text: 'done' }];
  await scenario(turns, async (s) => {
    mkdirSync(join(s.cwd, '.claude'));
    write(join(s.cwd, 'setup.sh'), 'mkdir -p .claude\ncat > .claude/ralph-loop.local.md <<X\nactive: true\nX\n');
    const r = await s.run(['-p', 'go', '--output-format', 'json'], { env: { MEWCODE_REQUIRE_SANDBOX: '1' } });
    expect(r.code).toBe(0);
    const result = toolResultOf(s.requests, 'b');
    expect(result.content).toContain('Read-only file system');
    expect(result.content).toContain('Note: the write to `.claude/ralph-loop.local.md` (in the protected `.claude`) failed because the OS sandbox keeps that path read-only');
    expect(result.content).toContain('write_file or edit_file');
    expect(existsSync(join(s.cwd, '.claude', 'ralph-loop.local.md'))).toBe(false);
  });
});
