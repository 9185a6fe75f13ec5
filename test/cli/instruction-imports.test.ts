// Claude Code's `@path` imports in instruction files, end to end: an imported file's text reaches
// the model's system prompt; a project's import of the user's secrets, or of a file the read
// rules deny, does not (each is a warning naming the file, line and path).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test('an imported file is in the system prompt; @~/.ssh/id_rsa and a denied file in a project CLAUDE.md are not', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    mkdirSync(join(s.cwd, 'docs'));
    writeFileSync(join(s.cwd, 'docs', 'git-instructions.md'), 'Marker IMPORTED-GIT-71: rebase, never merge.\n');
    writeFileSync(join(s.cwd, 'private.md'), 'Marker DENIED-PRIVATE-73\n');
    writeFileSync(join(s.cwd, 'CLAUDE.md'), 'Project rules.\nGit: @docs/git-instructions.md\nKey: @~/.ssh/id_rsa\nNotes: @private.md\n');
    mkdirSync(join(s.home, '.ssh'));
    writeFileSync(join(s.home, '.ssh', 'id_rsa'), '-----BEGIN OPENSSH PRIVATE KEY----- SECRET-KEY-72\n');
    mkdirSync(join(s.home, '.claude'));
    writeFileSync(join(s.home, '.claude', 'settings.json'), JSON.stringify({ permissions: { deny: ['Read(private.md)'] } }));
    writeFileSync(join(s.home, '.claude', 'CLAUDE.md'), 'User rules: @~/.claude/my-instructions.md\n');
    writeFileSync(join(s.home, '.claude', 'my-instructions.md'), 'Marker USER-IMPORT-74\n');

    const r = await s.run(['-p', 'hi']);
    expect(r.code).toBe(0);
    const system = JSON.stringify(s.requests[0]!.body.system);
    expect(system).toContain('IMPORTED-GIT-71');
    expect(system).toContain('USER-IMPORT-74');
    expect(system).toContain(`${join(s.cwd, 'docs', 'git-instructions.md')} (imported by ${join(s.cwd, 'CLAUDE.md')})`);
    expect(system).not.toContain('SECRET-KEY-72');
    expect(system).not.toContain('DENIED-PRIVATE-73');
    expect(r.stderr).toContain(`${join(s.cwd, 'CLAUDE.md')}:3: @~/.ssh/id_rsa is not imported: it is outside the project`);
    expect(r.stderr).toContain(`${join(s.cwd, 'CLAUDE.md')}:4: @private.md is not imported: the read rules`);
  });
});
