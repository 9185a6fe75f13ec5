/**
 * End to end through the built CLI: a deny rule `Bash(rm:*)` holds against commands whose `rm`
 * bash finds where tree-sitter-bash reads the line otherwise — a backslash-newline inside the word,
 * a builtin or setting that evaluates a string (PS4 with `set -x`, `mapfile -C`, `compgen -C`, a
 * named coproc's body, a quoted `declare` subscript, an exported function in `env`), an
 * interpreter reading its program from /dev/stdin, a line starting with a backslash — and a command nested past the parser's cap
 * is refused without taking the CLI down (the next call still runs).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const HIDDEN_RM = [
  'r\\\nm v0',
  'echo x; r\\\nm v1',
  "PS4='$(rm v2)'; set -x; true",
  "mapfile -C 'rm v3;:' -c 1 arr <<< line",
  "compgen -C 'rm v4' x",
  'coproc N { rm v5; }; wait',
  "declare 'a[$(rm v6)]=1'",
  "env 'BASH_FUNC_x%%=() { rm v7; }' bash -c x",
  "perl /dev/stdin <<< 'unlink \"v8\"'",
  "awk -f - <<< 'BEGIN{system(\"rm v9\")}' /dev/null",
  "python3 /dev/stdin <<< 'import os; os.remove(\"v10\")'",
  'true\n\\rm v11',
];

test('Bash(rm:*) denies rm hidden from the grammar: every marker file is kept', async () => {
  const turns = [...HIDDEN_RM.map((command, i) => ({ toolCalls: [{ id: `c${i}`, name: 'bash', input: { command } }] })), { text: 'done' }];
  await scenario(turns, async (s) => {
    HIDDEN_RM.forEach((_, i) => write(join(s.cwd, `v${i}`), 'keep\n'));
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(rm:*)'], { timeoutMs: 60_000 });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    HIDDEN_RM.forEach((command, i) => {
      expect({ command, kept: existsSync(join(s.cwd, `v${i}`)) }).toEqual({ command, kept: true });
      expect(toolResultOf(s.requests, `c${i}`).is_error).toBe(true);
    });
  });
}, 90_000);

test('a command nested 500 deep is refused as unparsable; the CLI lives on and runs the next call', async () => {
  const deep = `${'$('.repeat(500)}true${')'.repeat(500)}`;
  const turns = [{ toolCalls: [{ id: 'deep', name: 'bash', input: { command: deep } }] }, { toolCalls: [{ id: 'after', name: 'bash', input: { command: 'echo "after"' } }] }, { text: 'done' }];
  await scenario(turns, async (s) => {
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions', '--disallowedTools', 'Bash(rm:*)'], { timeoutMs: 60_000 });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(toolResultOf(s.requests, 'deep')).toMatchObject({ is_error: true });
    expect(toolResultOf(s.requests, 'after').content).toContain('after');
  });
}, 90_000);
