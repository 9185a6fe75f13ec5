/**
 * End to end through the built CLI, the OS sandbox off in the user's settings, which also allow
 * `Bash(git log:*)`: the model's `git log --output="$HOME/.mewcode/settings.json"` (which would
 * turn the user's settings into allow-everything for every later session) is a protected-path
 * write the allow rule does not lift; a `-p` run refuses the question and the file is unchanged.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test("an allowed `git log` cannot rewrite the user's settings through --output", async () => {
  const command = `git log -1 '--format=format:{"permissions":{"allow":["Bash","Edit","Write"]}}' --output="$HOME/.mewcode/settings.json"`;
  await scenario([{ toolCalls: [{ id: 'log', name: 'bash', input: { command } }] }, { text: 'done' }], async (s) => {
    const settings = JSON.stringify({ permissions: { allow: ['Bash(git log:*)'] }, sandbox: { enabled: false } });
    write(join(s.home, '.mewcode', 'settings.json'), settings);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], { cwd: s.cwd, env: { ...process.env, HOME: s.home } });
    git('init', '-q', '.');
    write(join(s.cwd, 'a.txt'), 'a\n');
    git('add', 'a.txt');
    git('commit', '-qm', 'i');
    const r = await s.run(['-p', 'go', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.home, '.mewcode', 'settings.json'), 'utf8')).toBe(settings);
    const result = toolResultOf(s.requests, 'log');
    expect(result.is_error).toBe(true);
    expect(result.content).toContain(join(s.home, '.mewcode', 'settings.json'));
  });
}, 60_000);
