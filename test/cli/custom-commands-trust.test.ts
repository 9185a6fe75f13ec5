// A project's custom commands need workspace trust only where they run something: through the
// built CLI, an untrusted project's trust notice lists each command file with a !`…` line (name,
// file, commands) and its lines do not run; text-only commands work and are not listed; trusted —
// for one run, or remembered in trust.json — the command runs.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceTrust } from '../../config/trust.js';
import { lastUserTexts, prepareCli, removeTempDirs, scenario, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());


const sandboxEnv = { MEWCODE_REQUIRE_SANDBOX: process.env.MEWCODE_REQUIRE_SANDBOX };

test.concurrent('untrusted: the notice lists the command files that run something, their lines do not run, text-only commands work unlisted', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    write(join(s.cwd, '.claude/commands/ops/touch-it.md'), '---\ndescription: Touches a file\nallowed-tools: Bash(touch:*)\n---\nTouched:\n!`touch ran-marker`\n');
    write(join(s.cwd, '.mewcode/commands/status.md'), 'State: !`echo bang-$((40+2))`\n');
    write(join(s.cwd, '.claude/commands/plain.md'), 'Just text $ARGUMENTS\n');
    const plain = await s.run(['-p', '/plain here']);
    expect(plain.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toBe('Just text here');
    expect(plain.stderr).toContain('that run code or send data were skipped: this project is not trusted');
    expect(plain.stderr).toContain('  .claude/commands/ops/touch-it.md: commands: /touch-it runs !`touch ran-marker`; pre-approves Bash(touch:*) for its turn\n');
    expect(plain.stderr).toContain('  .mewcode/commands/status.md: commands: /status runs !`echo bang-$((40+2))`\n');
    expect(plain.stderr).not.toContain('plain.md');

    const refused = await s.run(['-p', '/touch-it']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('/touch-it');
    expect(refused.stdout + refused.stderr).toMatch(/runs shell commands .* need this project trusted/);
    expect(existsSync(join(s.cwd, 'ran-marker'))).toBe(false);
    expect(s.requests).toHaveLength(1);
  });
});

test.concurrent('trusted for one run, the ! line runs and no notice is shown', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    write(join(s.cwd, '.claude/commands/touch-it.md'), '---\nallowed-tools: Bash(touch:*)\n---\nTouched:\n!`touch ran-marker`\n');
    const r = await s.run(['-p', '/touch-it', '--trust-project'], { env: sandboxEnv });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(existsSync(join(s.cwd, 'ran-marker'))).toBe(true);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toBe('Touched:');
  });
});

test.concurrent('trust remembered in trust.json covers a project whose only code-running setting is a command file; an edit asks again', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const file = join(s.cwd, '.claude/commands/status.md');
    write(file, '---\nallowed-tools: Bash(echo:*)\n---\nState: !`echo bang-$((40+2))`\n');
    // What the interactive trust question does when the user says yes.
    await (await createWorkspaceTrust({ projectRoot: s.cwd, homeDir: s.home })).grant();
    const trusted = await s.run(['-p', '/status'], { env: sandboxEnv });
    expect(trusted.stderr).toBe('');
    expect(trusted.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toBe('State: bang-42');

    write(file, '---\nallowed-tools: Bash(echo:*)\n---\nState: !`echo edited-$((40+2))`\n');
    const edited = await s.run(['-p', '/status'], { env: sandboxEnv });
    expect(edited.code).not.toBe(0);
    expect(edited.stderr).toContain('they changed since you trusted this project');
    expect(edited.stderr).toContain('  .claude/commands/status.md: commands: /status runs !`echo edited-$((40+2))`; pre-approves Bash(echo:*) for its turn (changed)\n');
    expect(edited.stdout + edited.stderr).not.toContain('edited-42');
    expect(s.requests).toHaveLength(1);
  });
});

test.concurrent('a project command whose only runnable part is a fenced ```! block is listed by the trust notice and refused untrusted', async () => {
  await scenario([{ text: 'done' }], async (s) => {
    write(join(s.cwd, '.claude/commands/fenced.md'), 'Run:\n```!\ntouch fenced-marker\n```\n');
    const refused = await s.run(['-p', '/fenced']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('  .claude/commands/fenced.md: commands: /fenced runs !`touch fenced-marker`\n');
    expect(refused.stdout + refused.stderr).toMatch(/runs shell commands .* need this project trusted/);
    expect(existsSync(join(s.cwd, 'fenced-marker'))).toBe(false);
    expect(s.requests).toHaveLength(0);
  });
});

test.concurrent('a ! line or block hidden from a plain reading (a byte-order mark, lone CR line ends, a NUL inside) is listed by the notice and refused untrusted', async () => {
  const spellings: Record<string, string> = {
    bom: '\uFEFF!`touch bom-marker`\n',
    'bom-fence': '\uFEFF```!\ntouch bom-fence-marker\n```\n',
    cr: 'Run:\r```!\rtouch cr-marker\r```\r',
    'nul-line': 'x !\u0000`touch nul-line-marker`\n',
    'nul-fence': '```\u0000!\ntouch nul-fence-marker\n```\n',
  };
  await scenario([{ text: 'done' }], async (s) => {
    for (const [name, text] of Object.entries(spellings)) write(join(s.cwd, `.claude/commands/${name}.md`), text);
    write(join(s.cwd, '.claude/commands/plain.md'), 'Just text\n');
    const plain = await s.run(['-p', '/plain']);
    expect(plain.code).toBe(0);
    for (const name of Object.keys(spellings)) {
      expect(plain.stderr).toContain(`  .claude/commands/${name}.md: commands: /${name} runs !\`touch ${name}-marker\`\n`);
      const refused = await s.run(['-p', `/${name}`], { env: sandboxEnv });
      expect(refused.stdout + refused.stderr).toMatch(/runs shell commands .* need this project trusted/);
      expect(existsSync(join(s.cwd, `${name}-marker`))).toBe(false);
    }
    expect(s.requests).toHaveLength(1);
  });
});
