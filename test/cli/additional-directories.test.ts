/**
 * Additional directories through the built CLI: grep and glob search a directory listed in the
 * user's settings (MewCode's `additional_directories` or Claude Code's `additionalDirectories`)
 * as read_file reads it, and Claude Code's `--add-dir <path>` gives one for a single run (its
 * `.claude/skills` included).
 */
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const calls = (dir: string) => ({
  toolCalls: [
    { id: 'g', name: 'grep', input: { pattern: 'needle', path: dir } },
    { id: 'f', name: 'glob', input: { pattern: '**/*.txt', path: dir } },
    { id: 'r', name: 'read_file', input: { file_path: join(dir, 'n.txt') } },
  ],
});

function notesDir(): string {
  const dir = realpathSync(tempDir('mewcode-notes-'));
  write(join(dir, 'n.txt'), 'a needle here\n');
  return dir;
}

function expectAllFound(requests: { body: any }[], dir: string): void {
  expect(toolResultOf(requests, 'g')).toMatchObject({ content: `${join(dir, 'n.txt')}:1: a needle here`, is_error: false });
  expect(toolResultOf(requests, 'f')).toMatchObject({ content: join(dir, 'n.txt'), is_error: false });
  expect(toolResultOf(requests, 'r').is_error ?? false).toBe(false);
}

test.concurrent.each([
  ['additional_directories', (dir: string) => [join('.mewcode', 'settings.yaml'), `permissions:\n  additional_directories: [${JSON.stringify(dir)}]\n`]],
  ['additionalDirectories', (dir: string) => [join('.claude', 'settings.json'), JSON.stringify({ permissions: { additionalDirectories: [dir] } })]],
])('grep and glob search a directory of the user settings\' %s, as read_file reads it', async (_name, file) => {
  const dir = notesDir();
  await scenario([calls(dir), { text: 'done' }], async (s) => {
    const [rel, text] = file(dir);
    write(join(s.home, rel!), text!);
    const r = await s.run(['-p', 'look', '--output-format', 'json']);
    expect(r.code).toBe(0);
    expectAllFound(s.requests, dir);
  });
});

test.concurrent('--add-dir gives a directory for this run; without it the search is refused', async () => {
  const dir = notesDir();
  await scenario([calls(dir), { text: 'done' }, calls(dir), { text: 'done' }], async (s) => {
    const r = await s.run(['-p', 'look', '--add-dir', dir, '--output-format', 'json']);
    expect(r.code).toBe(0);
    expectAllFound(s.requests, dir);
    const before = s.requests.length;
    const again = await s.run(['-p', 'look', '--output-format', 'json']);
    expect(again.code).toBe(0);
    const later = s.requests.slice(before);
    expect(toolResultOf(later, 'g').is_error).toBe(true);
    expect(toolResultOf(later, 'f').is_error).toBe(true);
  });
});

test.concurrent('--add-dir with a path that is not a directory is a usage error naming it', async () => {
  await scenario([], async (s) => {
    mkdirSync(join(s.cwd, 'real'));
    const r = await s.run(['-p', 'go', '--add-dir', 'real', '--add-dir', 'missing']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--add-dir missing: no such directory');
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent("--add-dir <dir> with a skill in <dir>/.claude/skills: listed in the request's cached block, and load_skill loads it", async () => {
  const dir = realpathSync(tempDir('mewcode-extra-'));
  write(join(dir, '.claude', 'skills', 'extskill', 'SKILL.md'), '---\nname: extskill\ndescription: EXTSKILL-DESC\n---\nEXTSKILL-BODY\n');
  await scenario([{ toolCalls: [{ id: 'l', name: 'load_skill', input: { name: 'extskill' } }] }, { text: 'done' }], async (s) => {
    const r = await s.run(['-p', 'go', '--add-dir', dir, '--output-format', 'json']);
    expect(r.code).toBe(0);
    const [first, second] = s.requests.map((q) => q.body);
    expect(first.system[0].text).toContain('- extskill: EXTSKILL-DESC');
    expect(toolResultOf(s.requests, 'l').is_error ?? false).toBe(false);
    expect(second.system[0]).toEqual(first.system[0]);
    expect(second.system[1].text).toContain('EXTSKILL-BODY');
  });
});
