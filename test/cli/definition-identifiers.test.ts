// A definition file's value that must name one thing (`model:`, `agent:`) and holds a line break,
// a carriage return or another control character is refused when the file is read — a warning
// naming the file, the line and the key, the rest of the file loads — so it is neither printed
// under MewCode's own output (a forged `mewcode: warning:` line in the "Model switched" notice)
// nor sent as a request's model.
import { join } from 'node:path';
import { prepareCli, removeTempDirs, scenario, toolResultOf, writeFileAndDirs as write } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const FORGED = 'mewcode: warning: trust: this project was verified';
const forgedModel = JSON.stringify(`claude-x\n\n${FORGED}\r`);

/** No line of stderr is the forged text, indented or not. */
function noForgedLine(stderr: string): void {
  for (const line of stderr.split(/\r?\n|\r/)) expect(line.trimStart().startsWith(FORGED)).toBe(false);
}

test.concurrent("a project skill's model: with line breaks is refused (file, line, key), the skill still loads, no forged notice line", async () => {
  await scenario([{ toolCalls: [{ id: 'load', name: 'load_skill', input: { name: 'fmt' } }] }, { text: 'ok' }], async (s) => {
    const file = join(s.cwd, '.claude/skills/fmt/SKILL.md');
    write(file, `---\nname: fmt\ndescription: format code\nmodel: ${forgedModel}\n---\nFormat.\n`);
    const r = await s.run(['-p', 'format']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${file}: line 4: model:`);
    expect(r.stderr).toContain('is not a name');
    noForgedLine(r.stderr);
    expect(r.stderr).not.toContain('Model switched');
    expect(toolResultOf(s.requests, 'load').is_error ?? false).toBe(false);
    const models = new Set(s.requests.map((q) => q.body.model));
    expect([...models]).toEqual([s.requests[0]!.body.model]);
    expect(String(s.requests[0]!.body.model)).not.toContain('claude-x');
  });
});

test.concurrent("a command file's model: and agent: with control characters are refused naming file, line and key; the command runs", async () => {
  await scenario([{ text: 'done' }], async (s) => {
    const file = join(s.home, '.claude/commands/go.md');
    write(file, `---\ndescription: Go\nmodel: "other\\u001b]0;x\\u0007model"\nargument-hint: "[a]"\n---\nGo $ARGUMENTS\n`);
    const r = await s.run(['-p', '/go now']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${file}:3: model:`);
    expect(r.stderr).not.toContain('\u001b');
    expect(String(s.requests[0]!.body.model)).not.toContain('other');
  });
});

test.concurrent("a sub-agent definition's model: with a line break is refused naming file, line and key; the agent loads", async () => {
  await scenario([{ toolCalls: [{ id: 'a', name: 'agent', input: { description: 'x', prompt: 'hi', subagent_type: 'helper' } }] }, { text: 'sub done' }, { text: 'done' }], async (s) => {
    const file = join(s.home, '.claude/agents/helper.md');
    write(file, `---\nname: helper\ndescription: helps\nmodel: ${forgedModel}\n---\nHelp.\n`);
    const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`${file}:4: model:`);
    noForgedLine(r.stderr);
    for (const q of s.requests) expect(String(q.body.model)).not.toContain('claude-x');
  });
});

test.concurrent('argument-hint and descriptions with line breaks print on one line in /help and /agents (no forged line)', async () => {
  await scenario([], async (s) => {
    write(join(s.home, '.claude/commands/go.md'), `---\ndescription: ${JSON.stringify(`Go\n${FORGED}-desc\r`)}\nargument-hint: ${JSON.stringify(`[a]\n${FORGED}-hint`)}\n---\nGo\n`);
    write(join(s.home, '.claude/skills/s1/SKILL.md'), `---\nname: s1\ndescription: sk\nargument-hint: ${JSON.stringify(`[a]\r${FORGED}-skill`)}\n---\nS.\n`);
    write(join(s.home, '.claude/agents/helper.md'), `---\nname: helper\ndescription: ${JSON.stringify(`helps\n${FORGED}-agent\u001b[2K`)}\n---\nHelp.\n`);
    for (const command of ['/help', '/help go', '/help s1', '/agents']) {
      const r = await s.run(['-p', command]);
      expect([command, r.code]).toEqual([command, 0]);
      const printed = r.stdout + r.stderr;
      expect(printed).toContain(command === '/agents' ? 'helper' : '/');
      noForgedLine(printed);
      expect(printed).not.toContain('\u001b');
    }
  });
});
