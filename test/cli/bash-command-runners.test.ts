/**
 * End to end through the built CLI: with a deny rule `Bash(rm:*)`, a command run through a
 * program that runs its operands (`prlimit`, `setarch`, `logsave`, `perf stat`) is denied, and one
 * run through a program the analysis does not know (a project script running "$@") is asked
 * for, which a `-p` run refuses: every marker file is kept.
 */
import { chmodSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const RUNNERS = ['prlimit --nofile=64 rm v0', 'setarch x86_64 rm v1', 'logsave /dev/null rm v2', './run-it.sh rm v3'];

test('Bash(rm:*) holds through runners: every marker file is kept', async () => {
  const turns = [...RUNNERS.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'bash', input: { command } }] })), { text: 'done' }];
  await scenario(turns, async (s) => {
    RUNNERS.forEach((_, i) => write(join(s.cwd, `v${i}`), 'keep\n'));
    write(join(s.cwd, 'run-it.sh'), '#!/bin/sh\n"$@"\n');
    chmodSync(join(s.cwd, 'run-it.sh'), 0o755);
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(rm:*)'], { timeoutMs: 60_000 });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    RUNNERS.forEach((command, i) => {
      expect({ command, kept: existsSync(join(s.cwd, `v${i}`)) }).toEqual({ command, kept: true });
      expect(toolResultOf(s.requests, `c${i}`).is_error).toBe(true);
    });
  });
}, 90_000);
