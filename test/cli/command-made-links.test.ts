/**
 * With the OS sandbox off (`sandbox: { enabled: false }`) MewCode's own path checks are the only
 * guard, in bypassPermissions too: a write through `/proc/self/cwd` after `cd` out of the project,
 * a write through a link the same command makes, and a recursive delete through such a link are
 * refused (headless: nobody to ask), and nothing outside the project is written or removed.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const bashCall = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', input: { command } }] });

test('sandbox off, bypassPermissions: /proc/self/cwd and links made by the command do not reach outside the project', async () => {
  const outsideOf = (home: string): string => join(home, 'outside');
  await scenario(
    [
      bashCall('proc', 'cd "$HOME/outside/a" && echo PWNED > /proc/self/cwd/MARKER1'),
      bashCall('link', 'ln -s "$HOME/outside/b" lnk && echo PWNED > lnk/MARKER2'),
      bashCall('wipe', 'ln -s "$HOME/outside/c" l2 && rm -rf l2/*'),
      { text: 'done' },
    ],
    async (s) => {
      write(join(s.home, '.mewcode', 'settings.json'), JSON.stringify({ sandbox: { enabled: false } }));
      for (const dir of ['a', 'b', 'c']) mkdirSync(join(outsideOf(s.home), dir), { recursive: true });
      writeFileSync(join(outsideOf(s.home), 'c', 'victim'), 'keep\n');
      const r = await s.run(['-p', 'go', '--output-format', 'json', '--permission-mode', 'bypassPermissions']);
      expect(r.code).toBe(0);
      expect(existsSync(join(outsideOf(s.home), 'a', 'MARKER1'))).toBe(false);
      expect(existsSync(join(outsideOf(s.home), 'b', 'MARKER2'))).toBe(false);
      expect(existsSync(join(outsideOf(s.home), 'c', 'victim'))).toBe(true);
      for (const id of ['proc', 'link', 'wipe']) expect(toolResultOf(s.requests, id).is_error).toBe(true);
    },
  );
}, 60_000);
