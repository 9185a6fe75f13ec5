/**
 * The user's own hook in an untrusted project runs inside the OS sandbox, where the session
 * records are hidden; the transcript MewCode writes for it (`transcript_path`) is handed to it
 * read-only, as Claude Code's hooks (ralph-wiggum's Stop hook) expect to read it. The other
 * sessions' records stay hidden.
 */
import { readFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test.concurrent("a user's Stop hook reads transcript_path in an untrusted project, and nothing else of the records", async () => {
  await scenario([{ text: 'first answer' }, { text: 'second answer' }], async (s) => {
    const hook = [
      'p=$(jq -r .transcript_path)',
      'if [ -r "$p" ]; then grep -c . "$p" > hook-read.txt; else echo "NOT READABLE $p" > hook-read.txt; fi',
      'ls "$(dirname "$(dirname "$p")")" > hook-ls.txt 2>&1',
    ].join('; ');
    write(join(s.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }] } }));
    mkdirSync(join(s.cwd, '.git'));
    const first = await s.run(['-p', 'hi'], { env: { MEWCODE_REQUIRE_SANDBOX: '1' } });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('your own hooks run inside the OS sandbox');
    expect(first.stderr).toContain("protected files — .claude, .mewcode, .mcp.json, .git/config —, the rest read-only, no network; the session's transcript readable");
    const second = await s.run(['-p', 'again'], { env: { MEWCODE_REQUIRE_SANDBOX: '1' } });
    expect(second.code).toBe(0);
    expect(existsSync(join(s.cwd, 'hook-read.txt'))).toBe(true);
    expect(readFileSync(join(s.cwd, 'hook-read.txt'), 'utf8')).toMatch(/^[1-9]\d*\n$/);
    // Only this session's folder shows: the first run's records stay hidden.
    expect(readFileSync(join(s.cwd, 'hook-ls.txt'), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});
