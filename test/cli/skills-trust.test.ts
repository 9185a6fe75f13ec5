// A project's skill with `!` lines needs workspace trust, as its command files do: through the
// built CLI, an untrusted project's trust notice lists the SKILL.md (name, file, commands) and the
// skill is refused with the trust hint, nothing run; trusted for one run its lines run and their
// output reaches the model; trust remembered in trust.json covers it, and an edit of the SKILL.md
// asks again.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceTrust } from '../../config/trust.js';
import { prepareCli, removeTempDirs, scenario, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const sandboxEnv = { MEWCODE_REQUIRE_SANDBOX: process.env.MEWCODE_REQUIRE_SANDBOX };

function systemText(body: any): string {
  return Array.isArray(body.system) ? body.system.map((b: any) => b.text).join('\n') : String(body.system ?? '');
}

const skill = (name: string, body: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n${body}`;

test.concurrent("untrusted: the notice lists the project's skill with ! lines and the skill is refused with the trust hint; nothing runs", async () => {
  await scenario([{ text: 'done' }], async (s) => {
    write(join(s.cwd, '.claude/skills/explain/SKILL.md'), skill('explain', 'Changes:\n!`touch ran-marker`\n'));
    write(join(s.cwd, '.mewcode/skills/notes/SKILL.md'), skill('notes', 'Just text $ARGUMENTS\n'));
    const refused = await s.run(['-p', '/explain', '--permission-mode', 'bypassPermissions'], { env: sandboxEnv });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('that run code or send data were skipped: this project is not trusted');
    expect(refused.stderr).toContain('  .claude/skills/explain/SKILL.md: skills: skill explain runs !`touch ran-marker`\n');
    expect(refused.stderr).not.toContain('notes/SKILL.md');
    expect(refused.stdout + refused.stderr).toMatch(/The skill "explain" .* runs shell commands .* need this project trusted with the file as it is now .*--trust-project/);
    expect(existsSync(join(s.cwd, 'ran-marker'))).toBe(false);
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('trusted for one run (--trust-project), its ! lines run and their output reaches the model', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    write(join(s.cwd, '.claude/skills/status/SKILL.md'), skill('status', 'State: !`echo bang-$((40+2))`\n'));
    const r = await s.run(['-p', '/status', '--trust-project', '--allowedTools', 'Bash(echo:*)'], { env: sandboxEnv });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(systemText(s.requests[0]!.body)).toContain('State: bang-42');
  });
});

test.concurrent('trust remembered in trust.json covers the skill; an edit of the SKILL.md asks again and it is refused', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const file = join(s.cwd, '.agents/skills/status/SKILL.md');
    write(file, skill('status', 'State: !`echo bang-$((40+2))`\n'));
    // What the interactive trust question does when the user says yes.
    await (await createWorkspaceTrust({ projectRoot: s.cwd, homeDir: s.home })).grant();
    const trusted = await s.run(['-p', '/status', '--allowedTools', 'Bash(echo:*)'], { env: sandboxEnv });
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect(systemText(s.requests[0]!.body)).toContain('State: bang-42');

    write(file, skill('status', 'State: !`echo edited-$((40+2))`\n'));
    const edited = await s.run(['-p', '/status', '--allowedTools', 'Bash(echo:*)'], { env: sandboxEnv });
    expect(edited.code).not.toBe(0);
    expect(edited.stderr).toContain('they changed since you trusted this project');
    expect(edited.stderr).toContain('  .agents/skills/status/SKILL.md: skills: skill status runs !`echo edited-$((40+2))` (changed)\n');
    expect(edited.stdout + edited.stderr).toMatch(/need this project trusted/);
    expect(edited.stdout + edited.stderr).not.toContain('edited-42');
    expect(s.requests).toHaveLength(1);
  });
});
