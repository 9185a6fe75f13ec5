/**
 * End to end through the built CLI: a deny rule `Bash(rm:*)` holds against an `rm` run through a
 * bash alias (`shopt -s expand_aliases`, `alias s=env`, then `s rm marker`): bash runs `rm marker`
 * though the line shows a program `s`. Every marker file is kept, and the model is told why.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const ALIASED_RM = [
  'shopt -s expand_aliases\nalias s=env\ns rm v0',
  "shopt -s expand_aliases\nalias s='nice -n 1'\ns rm v1",
  "set -o posix\nalias s='env ' r=rm\ns r v2",
  'shopt -s expand_aliases\nBASH_ALIASES[s]=env\ns rm v3',
];

test('Bash(rm:*) denies rm run through an alias: every marker file is kept', async () => {
  const turns = [...ALIASED_RM.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'bash', input: { command } }] })), { text: 'done' }];
  await scenario(turns, async (s) => {
    ALIASED_RM.forEach((_, i) => write(join(s.cwd, `v${i}`), 'keep\n'));
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(rm:*)'], { timeoutMs: 60_000 });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    ALIASED_RM.forEach((command, i) => {
      expect({ command, kept: existsSync(join(s.cwd, `v${i}`)) }).toEqual({ command, kept: true });
      expect(toolResultOf(s.requests, `c${i}`).is_error).toBe(true);
    });
    expect(String(toolResultOf(s.requests, 'c0').content)).toContain('Bash(rm:*)');
  });
}, 90_000);
