// Claude Code's skill keys in a SKILL.md and in a command file, through the built CLI:
// `disallowed-tools` is a deny for as long as the skill or command is in force, a misspelt key is
// said (naming file and key) rather than dropped (their `hooks:` run: component-hooks.test.ts), an inline skill's `model:`
// sends its turn to that model, and a SKILL.md's placeholders and `!` lines are filled in as a
// command file's are.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', input: { command } }] });
const writeCall = (id: string, file: string) => ({ toolCalls: [{ id, name: 'write_file', input: { file_path: file, content: 'x\n' } }] });

function systemText(body: any): string {
  return Array.isArray(body.system) ? body.system.map((b: any) => b.text).join('\n') : String(body.system ?? '');
}

test.concurrent("a command's disallowed-tools deny their calls even in bypassPermissions; a misspelt key is warned about, naming the file", async () => {
  await scenario([bash('rm', 'rm -f nothing.txt; echo RAN'), writeCall('write', 'w.txt'), bash('echo', 'echo FINE'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    const file = join(s.home, '.claude/commands/safe-deploy.md');
    write(
      file,
      '---\ndescription: Deploy safely\ndisallowed-tools: Bash(rm:*), Write\nefort: high\n---\nDeploy $ARGUMENTS\n',
    );
    const r = await s.run(['-p', '/safe-deploy prod', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    expect(toolResultOf(s.requests, 'rm')).toMatchObject({ is_error: true, content: expect.stringContaining('disallowed-tools: Bash(rm:*)') });
    expect(toolResultOf(s.requests, 'write')).toMatchObject({ is_error: true, content: expect.stringContaining('disallowed-tools: Write') });
    expect(existsSync(join(s.cwd, 'w.txt'))).toBe(false);
    expect(toolResultOf(s.requests, 'echo').content).toContain('FINE');
    expect(r.stderr).toContain(`${file}:4: unknown key "efort" (did you mean "effort"?)`);
  });
});

test.concurrent("a skill's disallowed-tools hold while it is active (typed /name, or loaded by the model)", async () => {
  await scenario(
    [writeCall('write', 'audit-w.txt'), bash('bash', 'echo BASH-RAN'), { text: 'done' }, { toolCalls: [{ id: 'load', name: 'load_skill', input: { name: 'readonly-audit' } }] }, writeCall('write2', 'later.txt'), { text: 'done' }],
    async (s) => {
      write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
      const skill = join(s.home, '.claude/skills/readonly-audit/SKILL.md');
      write(skill, '---\nname: readonly-audit\ndescription: Audit without changing anything\ndisallowed-tools: Write, Edit, Bash\n---\nAudit $ARGUMENTS.\n');
      const typed = await s.run(['-p', '/readonly-audit src', '--permission-mode', 'acceptEdits']);
      expect(typed.code).toBe(0);
      expect(toolResultOf(s.requests, 'write')).toMatchObject({ is_error: true, content: expect.stringContaining('disallowed-tools: Write') });
      expect(toolResultOf(s.requests, 'bash')).toMatchObject({ is_error: true, content: expect.stringContaining('disallowed-tools: Bash') });
      expect(existsSync(join(s.cwd, 'audit-w.txt'))).toBe(false);
      const loaded = await s.run(['-p', 'audit please', '--permission-mode', 'bypassPermissions']);
      expect(loaded.code).toBe(0);
      expect(toolResultOf(s.requests, 'write2')).toMatchObject({ is_error: true, content: expect.stringContaining('disallowed-tools: Write') });
      expect(existsSync(join(s.cwd, 'later.txt'))).toBe(false);
    },
  );
});

test.concurrent("an inline skill's model: sends its turn to that model, as a command file's does", async () => {
  await scenario([{ text: 'done' }], async (s) => {
    write(join(s.home, '.claude/skills/quick/SKILL.md'), '---\nname: quick\ndescription: Quick answers\nmodel: other-model\n---\nAnswer quickly: $ARGUMENTS\n');
    const r = await s.run(['-p', '/quick what is 2+2']);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('ignored');
    expect(s.requests[0]!.body.model).toBe('other-model');
  });
});
test.concurrent('a SKILL.md fills in $ARGUMENTS[N], $N, ${CLAUDE_SKILL_DIR} and ${CLAUDE_SESSION_ID}, and runs its !`…` lines as a command file does', async () => {
  await scenario([{ text: 'done' }, { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    const dir = join(s.home, '.claude/skills/pdf');
    write(join(dir, 'SKILL.md'), '---\nname: pdf\ndescription: PDF work\n---\nSkill dir: ${CLAUDE_SKILL_DIR}\nSession: ${CLAUDE_SESSION_ID}\nFirst: $0 second: $1 indexed: $ARGUMENTS[0] all: $ARGUMENTS\nNow: !`echo bang-$((40+2))`\n');
    const r = await s.run(['-p', '/pdf doc.pdf out.txt', '--allowedTools', 'Bash(echo:*)', '--output-format', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sessionId = JSON.parse(r.stdout).session_id as string;
    const system = systemText(s.requests[0]!.body);
    expect(system).toContain(`Skill dir: ${dir}\n`);
    expect(system).toContain(`Session: ${sessionId}\n`);
    expect(system).toContain('First: doc.pdf second: out.txt indexed: doc.pdf all: doc.pdf out.txt');
    expect(system).toContain('Now: bang-42');
    // Never prompts: a line no rule allows stops the skill, as it stops a command file.
    const refused = await s.run(['-p', '/pdf a b']);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain('permission check failed');
    expect(s.requests).toHaveLength(1);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toContain('doc.pdf out.txt');
  });
});
