/**
 * Claude Code's permission flags through the built CLI: `--allowedTools` / `--disallowedTools`
 * (and their kebab-case spellings) take several values in a row, and a rule is never read as the
 * prompt; `--permission-mode manual | dontAsk` and `--dangerously-skip-permissions` start the run
 * as Claude Code's would, `auto` is refused with what to use instead. Also `mewcode acp`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';
import { newSession, promptText, withAgent } from './acp-harness.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const writeCall = (id: string) => ({ toolCalls: [{ id, name: 'write_file', input: { file_path: 'new.txt', content: 'written\n' } }] });
const editCall = (id: string) => ({ toolCalls: [{ id, name: 'edit_file', input: { file_path: 'keep.txt', old_string: 'original', new_string: 'EDITED' } }] });
const bashCall = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', input: { command } }] });

/** Bash asks where no OS sandbox holds it (the user's `sandbox: false`). */
function sandboxOff(home: string): void {
  write(join(home, '.mewcode', 'settings.yaml'), 'sandbox: false\n');
}

test.concurrent('--disallowedTools Write Edit denies both; the second value is not appended to the prompt', async () => {
  await scenario([writeCall('w'), editCall('e'), { text: 'done' }], async (s) => {
    write(join(s.cwd, 'keep.txt'), 'original\n');
    const r = await s.run(['-p', 'tidy up', '--output-format', 'json', '--permission-mode', 'acceptEdits', '--disallowedTools', 'Write', 'Edit']);
    expect(r.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body)).toEqual(['tidy up']);
    expect(toolResultOf(s.requests, 'w')).toMatchObject({ is_error: true, content: expect.stringContaining('"Write"') });
    expect(toolResultOf(s.requests, 'e')).toMatchObject({ is_error: true, content: expect.stringContaining('"Edit"') });
    expect(readFileSync(join(s.cwd, 'keep.txt'), 'utf8')).toBe('original\n');
    expect(existsSync(join(s.cwd, 'new.txt'))).toBe(false);
  });
});

test.concurrent('--allowed-tools takes several rules in a row, and a prompt after them that is not a rule stays the prompt', async () => {
  await scenario([bashCall('b', 'touch made-by-bash'), { text: 'done' }], async (s) => {
    sandboxOff(s.home);
    const r = await s.run(['-p', '--output-format', 'json', '--allowed-tools', 'Bash(touch:*)', 'Read', 'make the file']);
    expect(r.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body)).toEqual(['make the file']);
    expect(toolResultOf(s.requests, 'b').is_error ?? false).toBe(false);
    expect(existsSync(join(s.cwd, 'made-by-bash'))).toBe(true);
  });
});

test.concurrent('a word after the list that mixes a rule and prose is a usage error, not a guess', async () => {
  await scenario([], async (s) => {
    const r = await s.run(['-p', 'go', '--disallowedTools', 'Write', 'Bash(rm:*) then tidy']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('"Bash(rm:*) then tidy" after --disallowedTools mixes tool rules and other words');
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('--permission-mode manual is default; auto is refused naming what to use', async () => {
  await scenario([writeCall('w'), { text: 'done' }], async (s) => {
    const r = await s.run(['-p', 'go', '--output-format', 'stream-json', '--permission-mode', 'manual']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({ type: 'system', subtype: 'init', permission_mode: 'default' });
    expect(toolResultOf(s.requests, 'w')).toMatchObject({ is_error: true, content: expect.stringContaining('write_file needs approval') });
    const auto = await s.run(['-p', 'go', '--permission-mode', 'auto']);
    expect(auto.code).toBe(2);
    expect(auto.stderr).toContain('--permission-mode auto');
    expect(auto.stderr).toContain('dontAsk');
  });
});

test.concurrent('--permission-mode dontAsk: what the allow rules allow runs, whatever would ask is refused without asking', async () => {
  await scenario([writeCall('w'), bashCall('b', 'touch nope'), { text: 'done' }], async (s) => {
    sandboxOff(s.home);
    const r = await s.run(['-p', 'go', '--output-format', 'json', '--permission-mode', 'dontAsk', '--allowedTools', 'Write']);
    expect(r.code).toBe(0);
    expect(readFileSync(join(s.cwd, 'new.txt'), 'utf8')).toBe('written\n');
    expect(toolResultOf(s.requests, 'b')).toMatchObject({ is_error: true, content: expect.stringContaining('--permission-mode dontAsk refuses whatever would ask') });
    expect(existsSync(join(s.cwd, 'nope'))).toBe(false);
  });
});

test.concurrent('--dangerously-skip-permissions is bypassPermissions: the write runs; with another mode it is an error; managed disable_bypass_mode refuses it', async () => {
  await scenario([writeCall('w'), { text: 'done' }], async (s) => {
    const r = await s.run(['-p', 'go', '--output-format', 'stream-json', '--dangerously-skip-permissions']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout.split('\n')[0]!)).toMatchObject({ permission_mode: 'bypassPermissions' });
    expect(readFileSync(join(s.cwd, 'new.txt'), 'utf8')).toBe('written\n');
    const both = await s.run(['-p', 'go', '--dangerously-skip-permissions', '--permission-mode', 'plan']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('cannot be combined with --permission-mode plan');
    const managed = join(s.home, 'managed', 'managed-settings.yaml');
    write(managed, 'permissions:\n  disable_bypass_mode: true\n');
    const refused = await s.run(['-p', 'go', '--dangerously-skip-permissions'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('disabled by managed settings');
    expect(s.requests).toHaveLength(2);
  });
});

test.concurrent(
  'mewcode acp: several rules after --disallowedTools, and dontAsk refuses without asking the editor',
  async () => {
    await scenario([{ toolCalls: [...writeCall('w').toolCalls, ...editCall('e').toolCalls, ...bashCall('b', 'touch nope').toolCalls] }, { text: 'done' }], async (s) => {
      sandboxOff(s.home);
      write(join(s.cwd, 'keep.txt'), 'original\n');
      await withAgent(
        s,
        async (client) => {
          const id = await newSession(client, s.cwd);
          expect((await promptText(client, id, 'go')).stopReason).toBe('end_turn');
          expect(client.permissionRequests).toHaveLength(0);
          expect(toolResultOf(s.requests, 'w').content).toContain('"Write"');
          expect(toolResultOf(s.requests, 'e').content).toContain('"Edit"');
          expect(toolResultOf(s.requests, 'b').content).toContain('--permission-mode dontAsk');
          expect(readFileSync(join(s.cwd, 'keep.txt'), 'utf8')).toBe('original\n');
        },
        { args: ['--permission-mode', 'dontAsk', '--disallowedTools', 'Write', 'Edit'] },
      );
    });
  },
  60_000,
);
