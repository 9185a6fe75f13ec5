// A repository's file and key names reach MewCode's warnings and notices (a command file, a skill
// folder, an agent file, a hook event in settings, an MCP server, a plugin name). A name holding a
// newline, a carriage return or an escape sequence must not print a line of its own that poses as
// MewCode's ("mewcode: this project is trusted…"): every line on stderr that starts with
// "mewcode:" is one MewCode began, and no control character reaches the terminal.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { prepareCli, removeTempDirs, scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const forged = (kind: string): string => `mewcode: this project is trusted (saved in trust.json) FORGED-${kind}`;
const breaks: Record<string, string> = { lf: '\n', cr: '\r', crlf: '\r\n', esc: '\u001b[2K\u001b[1G', nel: '\u0085', ls: '\u2028' };

function put(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** Every kind of file MewCode warns about, each with a name that tries to start a line of its own. */
function plant(project: string, brk: string): string[] {
  const kinds: string[] = [];
  const name = (kind: string): string => {
    kinds.push(kind);
    return `x${brk}${forged(kind)}${brk}`;
  };
  put(join(project, '.claude/commands', `${name('command')}.md`), 'hi\n');
  put(join(project, '.claude/skills', name('skill'), 'SKILL.md'), '---\nname: bad name!\ndescription: x\n---\nbody\n');
  put(join(project, '.claude/agents', `${name('agent')}.md`), '---\nname: 1 bad\n---\nbody\n');
  put(
    join(project, '.claude/settings.json'),
    JSON.stringify({ hooks: { [name('hook')]: [{ hooks: [{ type: 'command', command: 'true' }] }] }, enabledPlugins: { [`${name('plugin')}@m`]: true } }),
  );
  put(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { [name('mcp')]: { command: 'x' } } }));
  return kinds;
}

function expectNoForgedLine(stderr: string): void {
  expect(stderr).not.toMatch(/[\r\u001b\u0085\u2028]/);
  for (const line of stderr.split('\n')) expect(line).not.toMatch(/^mewcode: this project is trusted/);
}

for (const [label, brk] of Object.entries(breaks)) {
  test.concurrent(`${label}: names in commands, skills, agents, hooks, .mcp.json and plugin settings forge no line, untrusted or trusted`, async () => {
    await scenario([{ text: 'ok' }, { text: 'ok' }], async (s) => {
      const kinds = plant(s.cwd, brk);
      const untrusted = await s.run(['-p', 'hi']);
      expectNoForgedLine(untrusted.stderr);
      const trusted = await s.run(['-p', 'hi', '--trust-project']);
      expectNoForgedLine(trusted.stderr);
      const json = await s.run(['-p', 'hi', '--trust-project', '--output-format', 'stream-json', '--verbose']);
      expectNoForgedLine(json.stderr);
      for (const line of json.stdout.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
      const skills = await s.run(['skills', '--trust-project']);
      expectNoForgedLine(skills.stderr + skills.stdout);
      // Each name was reported (so the test says something about each kind): by a run or by `mewcode skills`.
      for (const kind of kinds) expect(untrusted.stderr + trusted.stderr + skills.stdout + skills.stderr).toContain(`FORGED-${kind}`);
    });
  });
}

// Keys a repository's settings files hold are quoted on the warning's own line: a key with a line
// break in it adds no line at all, not even an indented one under the warning.
test.concurrent('settings keys with line breaks stay on the warning line that quotes them', async () => {
  await scenario([{ text: 'ok' }, { text: 'ok' }], async (s) => {
    const key = (kind: string): string => `x\n${forged(kind)}`;
    put(join(s.cwd, '.mewcode.yaml'), `${JSON.stringify(key('config-key'))}: 1\n`);
    put(
      join(s.cwd, '.claude/settings.json'),
      JSON.stringify({ [key('claude-key')]: 1, hooks: { PreToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'true', [key('handler-key')]: 1 }] }] } }),
    );
    put(join(s.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { srv: { command: 'x', [key('server-key')]: 1 } } }));
    const kinds = ['config-key', 'claude-key', 'handler-key', 'server-key'];
    for (const args of [['-p', 'hi'], ['-p', 'hi', '--trust-project']]) {
      const { stderr } = await s.run(args);
      expectNoForgedLine(stderr);
      const lines = stderr.split('\n');
      for (const kind of kinds.filter((k) => stderr.includes(`FORGED-${k}`))) {
        // A warning's own line, or (an unread top-level key counts as a plugin's section, which needs
        // trust) the trust notice's item naming the file, the key escaped on it.
        for (const line of lines.filter((l) => l.includes(`FORGED-${kind}`))) expect({ kind, line }).toEqual({ kind, line: expect.stringMatching(/^(?:mewcode: |  \.mewcode\.yaml: x\\u000a)/) });
      }
    }
    const { stderr } = await s.run(['-p', 'hi', '--trust-project']);
    for (const kind of kinds) expect({ kind, said: stderr.includes(`FORGED-${kind}`) }).toEqual({ kind, said: true });
  });
});
