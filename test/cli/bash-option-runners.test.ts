/**
 * End to end through the built CLI, in a git repository: a deny rule `Bash(rm:*)` holds against
 * an `rm` given to a program as an option the program reads by prefix (`git rebase --exe`, `git
 * fetch --upload-pac`, `zip --unzip-comm`, `sort --compress-prog`), as git grep's pager, or in an
 * environment variable that carries the program's options (TAR_OPTIONS). Every marker is kept.
 */
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const OPTION_RM = [
  "git rebase -q --exe='rm v0' HEAD~1",
  "git fetch -q --upload-pac='rm v1;:' .",
  "git ls-remote --u='rm v2;:' .",
  "git grep -O'rm v3;:' -e hello",
  "TAR_OPTIONS='--to-command=rm\\ v4' tar xf a.tar",
  "zip -q -T --unzip-comm='rm v5;:' z.zip a.txt",
  "yes 'rm v6' | head -n 50000 | sort -S 1K -T . --compress-prog=sh > /dev/null",
];

test('Bash(rm:*) denies rm given through abbreviated options, a pager option and TAR_OPTIONS: every marker is kept', async () => {
  const turns = [...OPTION_RM.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'bash', input: { command } }] })), { text: 'done' }];
  await scenario(turns, async (s) => {
    write(join(s.cwd, 'a.txt'), 'hello\n');
    const git = 'git -c user.email=a@b -c user.name=a';
    execSync(`git init -q . && ${git} add a.txt && ${git} commit -qm one && echo more >> a.txt && ${git} commit -qam two && tar cf a.tar a.txt && zip -q z.zip a.txt`, { cwd: s.cwd, stdio: 'ignore' });
    OPTION_RM.forEach((_, i) => write(join(s.cwd, `v${i}`), 'keep\n'));
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(rm:*)'], { timeoutMs: 60_000 });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(OPTION_RM.filter((_, i) => !existsSync(join(s.cwd, `v${i}`)))).toEqual([]);
    expect(OPTION_RM.filter((_, i) => toolResultOf(s.requests, `c${i}`).is_error !== true)).toEqual([]);
  });
}, 90_000);
