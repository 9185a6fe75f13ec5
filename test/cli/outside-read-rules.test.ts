/**
 * Claude Code's allow rules for reading outside the project through the built CLI: `Read(//abs/**)`
 * (what its "don't ask again" writes into settings.local.json) and `Read(~/…)` let read_file read
 * exactly what they name — from the user's settings always, from the project's only once it is
 * trusted — while a link inside the allowed folder leading elsewhere, a write there, the user's deny
 * rule and the credentials the OS sandbox hides (`~/.ssh`) stay refused.
 */
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

/** A shared folder outside the project: a doc, a private file, and a link to a file elsewhere. */
function sharedDir(): { dir: string; elsewhere: string } {
  const dir = realpathSync(tempDir('mewcode-shared-'));
  const other = realpathSync(tempDir('mewcode-other-'));
  write(join(dir, 'api.md'), 'SHARED-DOC\n');
  write(join(dir, 'private.txt'), 'PRIVATE\n');
  const elsewhere = join(other, 'secret.txt');
  write(elsewhere, 'ELSEWHERE\n');
  symlinkSync(elsewhere, join(dir, 'link.md'));
  return { dir, elsewhere };
}

const reads = (dir: string) => ({
  toolCalls: [
    { id: 'doc', name: 'read_file', input: { file_path: join(dir, 'api.md') } },
    { id: 'link', name: 'read_file', input: { file_path: join(dir, 'link.md') } },
    { id: 'ssh', name: 'read_file', input: { file_path: '~/.ssh/id_ed25519' } },
    { id: 'write', name: 'write_file', input: { file_path: join(dir, 'new.md'), content: 'x' } },
    { id: 'home', name: 'read_file', input: { file_path: '~/notes/todo.md' } },
  ],
});

function plantHome(home: string): void {
  write(join(home, '.ssh', 'id_ed25519'), 'PRIVATE-KEY\n');
  write(join(home, 'notes', 'todo.md'), 'TODO-NOTE\n');
}

test.concurrent("the user's Read(//abs/**) and Read(~/…) rules let read_file read what they name, and nothing else", async () => {
  const { dir } = sharedDir();
  await scenario([reads(dir), { text: 'done' }], async (s) => {
    plantHome(s.home);
    write(join(s.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: [`Read(/${dir}/**)`, 'Read(~/notes/**)', 'Read(~/.ssh/**)'], deny: [`Read(/${dir}/private.txt)`] } }));
    const r = await s.run(['-p', 'look', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const doc = toolResultOf(s.requests, 'doc');
    expect(doc.is_error ?? false).toBe(false);
    expect(doc.content).toContain('SHARED-DOC');
    // The rule names the link, not where it leads.
    const link = toolResultOf(s.requests, 'link');
    expect(link.is_error).toBe(true);
    expect(link.content).not.toContain('ELSEWHERE');
    expect(link.content).toContain('permission-sandbox');
    // The credentials the sandbox hides stay hidden whatever the user's rule says, and the refusal names the rule.
    const ssh = toolResultOf(s.requests, 'ssh');
    expect(ssh.is_error).toBe(true);
    expect(ssh.content).not.toContain('PRIVATE-KEY');
    expect(ssh.content).toContain('Read(~/.ssh/**)');
    expect(ssh.content).toContain('credential list');
    // A read rule opens nothing for writing.
    expect(toolResultOf(s.requests, 'write').is_error).toBe(true);
    const home = toolResultOf(s.requests, 'home');
    expect(home.is_error ?? false).toBe(false);
    expect(home.content).toContain('TODO-NOTE');
  });
});

test.concurrent("the user's deny rule still wins over their allow rule outside the project", async () => {
  const { dir } = sharedDir();
  await scenario([{ toolCalls: [{ id: 'p', name: 'read_file', input: { file_path: join(dir, 'private.txt') } }] }, { text: 'done' }], async (s) => {
    write(join(s.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { allow: [`Read(/${dir}/**)`], deny: [`Read(/${dir}/private.txt)`] } }));
    const r = await s.run(['-p', 'look', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const p = toolResultOf(s.requests, 'p');
    expect(p.is_error).toBe(true);
    expect(p.content).not.toContain('PRIVATE');
    expect(p.content).toContain('permission-rules');
  });
});

test.concurrent("a repository's settings.local.json grants nothing outside the project until the project is trusted, and never the credentials", async () => {
  const { dir } = sharedDir();
  const turn = (home: string) => ({
    toolCalls: [
      { id: 'doc', name: 'read_file', input: { file_path: join(dir, 'api.md') } },
      { id: 'ssh', name: 'read_file', input: { file_path: join(home, '.ssh', 'id_ed25519') } },
    ],
  });
  const home = realpathSync(tempDir('mewcode-home-'));
  await scenario([turn(home), { text: 'done' }, turn(home), { text: 'done' }], async (s) => {
    plantHome(home);
    mkdirSync(join(s.cwd, '.claude'), { recursive: true });
    write(join(s.cwd, '.claude', 'settings.local.json'), JSON.stringify({ permissions: { allow: [`Read(/${dir}/**)`, 'Read(~/.ssh/**)'] } }));
    const env = { HOME: home };
    const untrusted = await s.run(['-p', 'look', '--output-format', 'json'], { env });
    expect(untrusted.code).toBe(0);
    for (const id of ['doc', 'ssh']) {
      const result = toolResultOf(s.requests, id);
      expect(result.is_error).toBe(true);
      expect(result.content).not.toMatch(/SHARED-DOC|PRIVATE-KEY/);
    }
    const before = s.requests.length;
    const trusted = await s.run(['-p', 'look', '--output-format', 'json', '--trust-project'], { env });
    expect(trusted.code).toBe(0);
    const later = s.requests.slice(before);
    expect(toolResultOf(later, 'doc').content).toContain('SHARED-DOC');
    const ssh = toolResultOf(later, 'ssh');
    expect(ssh.is_error).toBe(true);
    expect(ssh.content).not.toContain('PRIVATE-KEY');
  });
});
