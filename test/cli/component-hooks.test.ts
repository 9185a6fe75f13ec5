// A skill's, a command file's and a sub-agent definition's own `hooks:` (Claude Code's frontmatter
// key) run while that component is active, through the built CLI: an inline skill's for the turn
// it is activated in, a fork skill's inside its sub-agent only, a command file's for the command's
// turn. A project's file's hooks run only when the project is trusted with the file's exact text;
// a malformed entry is said naming file, line and key, and the rest still runs.
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspaceTrust } from '../../config/trust.js';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const bash = (id: string, command: string) => ({ toolCalls: [{ id, name: 'bash', input: { command } }] });
const load = (id: string, name: string) => ({ toolCalls: [{ id, name: 'load_skill', input: { name } }] });

/** A PreToolUse hook on Bash that refuses every call (exit 2, its stderr the reason). */
const BLOCK_BASH = 'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "echo guarded-by-skill >&2; exit 2"\n';
const guardSkill = (name: string, extra = '') => `---\nname: ${name}\ndescription: Guard the shell\n${extra}${BLOCK_BASH}---\nBe careful $ARGUMENTS\n`;
const sandboxEnv = { MEWCODE_REQUIRE_SANDBOX: process.env.MEWCODE_REQUIRE_SANDBOX };
/** The user's own hooks run on the host in a project the user trusts (in an untrusted one: contained, as settings hooks). */
const trustedEnv = { env: { MEWCODE_TRUST_PROJECT: '1' } };

test.concurrent("a user skill's PreToolUse hook blocks bash during the turn it is activated in, not in a later turn of the session", async () => {
  await scenario([bash('b1', 'echo FIRST'), { text: 'done' }, bash('b2', 'echo SECOND'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    const file = join(s.home, '.claude/skills/guard/SKILL.md');
    write(file, guardSkill('guard'));
    const first = await s.run(['-p', '/guard now', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(first.code).toBe(0);
    expect(first.stderr).not.toContain('not run by MewCode');
    expect(toolResultOf(s.requests, 'b1')).toMatchObject({ is_error: true, content: expect.stringContaining('guarded-by-skill') });
    // The session continues (the skill is still in its Active Skills): its hooks ended with its turn.
    const later = await s.run(['-p', 'carry on', '--continue', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(later.code).toBe(0);
    expect(toolResultOf(s.requests, 'b2').content).toContain('SECOND');
    expect(toolResultOf(s.requests, 'b2').is_error).toBeFalsy();
  });
});

test.concurrent("a fork skill's hooks run inside its sub-agent only: the caller's own bash after the fork ended runs", async () => {
  await scenario([load('l1', 'fguard'), bash('f1', 'echo IN-FORK'), { text: 'fork finished' }, bash('m1', 'echo AFTER-FORK'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    write(join(s.home, '.claude/skills/fguard/SKILL.md'), guardSkill('fguard', 'context: fork\n'));
    const r = await s.run(['-p', 'use the fguard skill', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(r.code).toBe(0);
    expect(toolResultOf(s.requests, 'f1')).toMatchObject({ is_error: true, content: expect.stringContaining('guarded-by-skill') });
    expect(toolResultOf(s.requests, 'l1').content).toContain('fork finished');
    expect(toolResultOf(s.requests, 'm1').content).toContain('AFTER-FORK');
    expect(toolResultOf(s.requests, 'm1').is_error).toBeFalsy();
  });
});

test.concurrent("a command file's PostToolUse hook runs during the command's turn only", async () => {
  await scenario([bash('c1', 'echo ONE'), { text: 'done' }, bash('c2', 'echo TWO'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    write(
      join(s.home, '.claude/commands/logged.md'),
      '---\ndescription: Logged work\nhooks:\n  PostToolUse:\n    - matcher: Bash\n      hooks:\n        - { type: command, command: \'echo "$(jq -r .tool_input.command)" >> "$CLAUDE_PROJECT_DIR/post.log"\' }\n---\nWork on $ARGUMENTS\n',
    );
    const first = await s.run(['-p', '/logged it', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(first.code).toBe(0);
    expect(first.stderr).not.toContain('not run by MewCode');
    const later = await s.run(['-p', 'more', '--continue', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(later.code).toBe(0);
    expect(toolResultOf(s.requests, 'c2').content).toContain('TWO');
    expect(readFileSync(join(s.cwd, 'post.log'), 'utf8')).toBe('echo ONE\n');
  });
});

test.concurrent("an untrusted project's skill's hooks are not run and are warned about; trusted for the run (--trust-project) they run", async () => {
  await scenario([bash('u1', 'echo UNTRUSTED-RAN'), { text: 'done' }, bash('t1', 'echo TRUSTED-RAN'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    write(join(s.cwd, '.claude/skills/pguard/SKILL.md'), guardSkill('pguard'));
    const untrusted = await s.run(['-p', '/pguard', '--permission-mode', 'bypassPermissions'], { env: sandboxEnv });
    expect(untrusted.code).toBe(0);
    expect(untrusted.stderr).toContain('  .claude/skills/pguard/SKILL.md: skills: skill pguard runs hooks (PreToolUse: echo guarded-by-skill >&2; exit 2)\n');
    expect(untrusted.stderr).toMatch(/skill "pguard" \(.*SKILL\.md\): its hooks are not run: they need this project trusted with the file as it is now/);
    expect(toolResultOf(s.requests, 'u1').content).toContain('UNTRUSTED-RAN');
    const trusted = await s.run(['-p', '/pguard', '--trust-project', '--permission-mode', 'bypassPermissions'], { env: sandboxEnv });
    expect(trusted.code).toBe(0);
    expect(trusted.stderr).not.toContain('its hooks are not run');
    expect(toolResultOf(s.requests, 't1')).toMatchObject({ is_error: true, content: expect.stringContaining('guarded-by-skill') });
  });
});

test.concurrent("a project's command file's hooks run once trust remembers its exact text; an edit asks again and they do not run", async () => {
  await scenario([bash('k1', 'echo ONE'), { text: 'done' }, bash('k2', 'echo TWO'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    const file = join(s.cwd, '.claude/commands/guarded.md');
    const text = (word: string) => `---\ndescription: Guarded ${word}\n${BLOCK_BASH}---\nDo $ARGUMENTS\n`;
    write(file, text('one'));
    await (await createWorkspaceTrust({ projectRoot: s.cwd, homeDir: s.home })).grant();
    const trusted = await s.run(['-p', '/guarded x', '--permission-mode', 'bypassPermissions'], { env: sandboxEnv });
    expect(trusted.code).toBe(0);
    expect(toolResultOf(s.requests, 'k1')).toMatchObject({ is_error: true, content: expect.stringContaining('guarded-by-skill') });
    write(file, text('two'));
    const edited = await s.run(['-p', '/guarded x', '--permission-mode', 'bypassPermissions'], { env: sandboxEnv });
    expect(edited.code).toBe(0);
    expect(edited.stderr).toContain('they changed since you trusted this project');
    expect(edited.stderr).toContain('  .claude/commands/guarded.md: commands: /guarded runs hooks (PreToolUse: echo guarded-by-skill >&2; exit 2) (changed)\n');
    expect(edited.stderr).toMatch(/\/guarded \(.*guarded\.md\): its hooks are not run: they need this project trusted with the file as it is now/);
    expect(toolResultOf(s.requests, 'k2').content).toContain('TWO');
  });
});

test.concurrent('malformed hooks are warned about naming the file, line and key; the good ones still run', async () => {
  await scenario([bash('m1', 'echo MALFORMED'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    const file = join(s.home, '.claude/skills/mixed/SKILL.md');
    write(
      file,
      '---\nname: mixed\ndescription: Mixed hooks\nhooks:\n  PreToolUze:\n    - hooks: [{ type: command, command: "true" }]\n  PostToolUse:\n    - matcher: "(a"\n      hooks: [{ type: command, command: "true" }]\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: "echo guarded-by-skill >&2; exit 2"\n---\nBody\n',
    );
    const r = await s.run(['-p', '/mixed', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`${file}:6:\\d+: unknown hook event "PreToolUze"`));
    expect(r.stderr).toMatch(new RegExp(`${file}:8:\\d+: hooks\\.PostToolUse\\[0\\]\\.matcher "\\(a" is not a valid regular expression`));
    expect(toolResultOf(s.requests, 'm1')).toMatchObject({ is_error: true, content: expect.stringContaining('guarded-by-skill') });
    expect(existsSync(file)).toBe(true);
  });
});

test.concurrent("an agent definition's hooks run inside its sub-agents only (its Stop hook as SubagentStop)", async () => {
  const start = { toolCalls: [{ id: 'a1', name: 'agent', input: { description: 'guarded work', prompt: 'Run echo', subagent_type: 'guarded' } }] };
  await scenario([start, bash('s1', 'echo IN-AGENT'), { text: 'agent finished' }, bash('p1', 'echo IN-PARENT'), { text: 'done' }], async (s) => {
    write(join(s.home, '.mewcode/settings.yaml'), 'sandbox: false\n');
    write(
      join(s.home, '.claude/agents/guarded.md'),
      `---\nname: guarded\ndescription: Guarded worker\n${BLOCK_BASH}  Stop:\n    - hooks: [{ type: command, command: 'echo stopped >> "$CLAUDE_PROJECT_DIR/stop.log"' }]\n---\nYou work carefully.\n`,
    );
    const r = await s.run(['-p', 'delegate', '--permission-mode', 'bypassPermissions'], trustedEnv);
    expect(r.code).toBe(0);
    expect(toolResultOf(s.requests, 's1')).toMatchObject({ is_error: true, content: expect.stringContaining('guarded-by-skill') });
    expect(toolResultOf(s.requests, 'p1').content).toContain('IN-PARENT');
    expect(toolResultOf(s.requests, 'p1').is_error).toBeFalsy();
    // The sub-agent's stop ran it (as SubagentStop); the main agent's own stop did not.
    expect(readFileSync(join(s.cwd, 'stop.log'), 'utf8')).toBe('stopped\n');
  });
});
