/**
 * Adversarial: terminal injection through the built CLI. A hostile model, provider, repository,
 * hook, skill, session file or MCP server puts escape sequences into text MewCode prints: OSC 52
 * (writes the user's clipboard), OSC 0 (the window title), CSI 2K / cursor-up (erases what the user
 * read), DCS, and the same as 8-bit C1 controls (0x9b CSI, 0x9d OSC). In text mode no ESC and no
 * C1 control may reach stdout or stderr, while the visible words around them stay; the JSON
 * formats carry the exact text, escaped.
 */
import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { prepareCli, removeTempDirs, runCli, scenario, type CliResult, type Scenario } from '../cli/helpers.js';
import { EXITED, TmuxTerminal } from '../cli/tmux.js';
import { securityTally } from './attempts.js';

const tally = securityTally('terminal-injection');
afterAll(() => tally.save());
afterEach(removeTempDirs);

const PAYLOADS: Record<string, string> = {
  'OSC 52 clipboard write': '\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  'CSI line erase and cursor up': '\u001b[2K\u001b[1A\r',
  'OSC 0 window title (ST-terminated)': '\u001b]0;owned\u001b\\',
  '8-bit C1 CSI (0x9b)': '\u009b2J\u009bH',
  '8-bit C1 OSC (0x9d … 0x9c)': '\u009d52;c;cHduZWQ=\u009c',
  'DCS request (ESC P … ST)': '\u001bP$qm\u001b\\',
  'unterminated OSC': '\u001b]8;;https://evil.test',
};
const EVIL = Object.values(PAYLOADS).join('');

/** ESC, the C1 controls (also as UTF-8), and the other C0 controls a terminal acts on. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

/** Records the attempt and fails the test when a control character reached the terminal. */
function assertClean(name: string, result: CliResult): void {
  for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
    const found = CONTROL.exec(text);
    tally.attempt(`${name} (${stream})`, found !== null);
    expect({ name, stream, control: found ? `U+${found[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(text.slice(Math.max(0, found.index - 40), found.index + 40))}` : null }).toEqual({ name, stream, control: null });
  }
}

function userFile(s: Scenario, rel: string, text: string): string {
  const file = path.join(s.home, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, { mode: 0o755 });
  return file;
}

/** JSON with every non-printable-ASCII character as `\uXXXX` (safe inside a shell's single quotes and a YAML file). */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\u0020-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replace(/'/g, '\\u0027');
}

/**
 * A shell script printing the payload (written by printf from octal escapes, so the script itself
 * is plain). Without `readStdin` (an MCP server: its stdin stays open) it waits a moment before
 * exiting, so its stderr is logged before the connection is seen closed.
 */
function printingScript(s: Scenario, name: string, stream: 'stdout' | 'stderr', exitCode: number, words: string, readStdin = true): string {
  const octal = [...Buffer.from(`${words} ${EVIL} end`, 'utf8')].map((byte) => `\\${byte.toString(8).padStart(3, '0')}`).join('');
  return userFile(s, name, `#!/bin/sh\n${readStdin ? 'cat >/dev/null\n' : ''}printf '${octal}\\n' ${stream === 'stderr' ? '>&2' : ''}\n${readStdin ? '' : 'sleep 0.3\n'}exit ${exitCode}\n`);
}

describe('the model’s text in -p text mode', () => {
  test.each(Object.entries(PAYLOADS))('%s is not printed raw, the words around it are', async (name, payload) => {
    await scenario([{ text: `Hello ${payload}world\n\tindented\nline` }], async (s) => {
      const result = await s.run(['-p', 'hi']);
      expect(result.code).toBe(0);
      assertClean(`final text: ${name}`, result);
      expect(result.stdout).toContain('Hello ');
      expect(result.stdout).toContain('world\n\tindented\nline');
    });
  });

  test('a slash command’s output (/hooks listing a hostile hook) is not printed raw', async () => {
    await scenario([], async (s) => {
      userFile(s, '.mewcode/settings.yaml', JSON.stringify({ hooks: { PreToolUse: [{ matcher: `Bash${EVIL}`, hooks: [{ type: 'command', command: `echo listed ${EVIL}` }] }] } }));
      const result = await s.run(['-p', '/hooks']);
      assertClean('/hooks in -p', result);
      expect(result.stdout).toContain('echo listed');
    });
  });
});

describe('provider errors', () => {
  test.each([
    ['anthropic', 400, { type: 'error', error: { type: 'invalid_request_error', message: `bad request ${EVIL} end` } }],
    ['anthropic', 401, { type: 'error', error: { type: 'authentication_error', message: `no key ${EVIL} end` } }],
    ['openai', 400, { error: { message: `bad request ${EVIL} end`, type: 'invalid_request_error', code: null, param: null } }],
  ] as const)('%s %d error with a crafted message', async (protocol, status, body) => {
    await scenario(
      [{ httpError: { status, body } }],
      async (s) => {
        const result = await s.run(['-p', 'hi']);
        expect(result.code).toBe(1);
        assertClean(`${protocol} ${status} error body`, result);
        expect(result.stderr).toMatch(/(bad request|no key)/);
      },
      protocol,
    );
  });

  test.each(['anthropic', 'openai'] as const)('%s mid-stream error with a crafted message', async (protocol) => {
    await scenario(
      [{ streamError: { message: `overloaded ${EVIL} end` } }, { streamError: { message: `overloaded ${EVIL} end` } }],
      async (s) => {
        // One fast retry: the retry notice quotes the message too.
        const baseUrl = protocol === 'anthropic' ? s.server.url : `${s.server.url}/v1`;
        userFile(s, '.mewcode/config.yaml', stringify({ provider: 'main', providers: [{ name: 'main', protocol, model: 'x', api_key: 'test-key', base_url: baseUrl, retry_base_delay_ms: 5, max_retries: 1 }] }));
        const result = await s.run(['-p', 'hi']);
        assertClean(`${protocol} stream error and its retry notice`, result);
        expect(result.stderr).toContain('overloaded');
      },
      protocol,
    );
  });
});

describe('hooks', () => {
  test('a hook that fails with hostile stderr, and one whose systemMessage is hostile, at run time', async () => {
    await scenario([{ text: 'done' }], async (s) => {
      const failing = printingScript(s, 'fail.sh', 'stderr', 1, 'failing');
      const message = userFile(s, 'message.sh', `#!/bin/sh\ncat >/dev/null\nprintf '%s' '${asciiJson({ systemMessage: `note ${EVIL} end` })}'\n`);
      userFile(s, '.mewcode/settings.yaml', JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: failing }, { type: 'command', command: message }] }] } }));
      // Trusted: the user's hooks run on the host (in an untrusted project the sandbox hides this /tmp home).
      const result = await s.run(['-p', 'hi'], { env: { MEWCODE_TRUST_PROJECT: '1' } });
      assertClean('run-time hook messages', result);
      expect(result.stderr).toContain('failing');
      expect(result.stderr).toContain('note');
    });
  });

  test('mewcode hooks: hostile commands, matchers and rule files', async () => {
    await scenario([], async (s) => {
      userFile(s, '.mewcode/settings.yaml', JSON.stringify({ hooks: { [`Pre${EVIL}ToolUse`]: [{ hooks: [{ type: 'command', command: 'x' }] }], PreToolUse: [{ matcher: `Bash${EVIL}`, hooks: [{ type: 'command', command: `echo listed ${EVIL}` }] }] } }));
      userFile(s, '.mewcode/hooks.yaml', JSON.stringify({ rules: [{ name: `rule ${EVIL}`, on: `Odd${EVIL}Event`, run: `echo ${EVIL}` }] }));
      const result = await s.run(['hooks']);
      assertClean('mewcode hooks', result);
      expect(result.stdout).toContain('echo listed');
    });
  });
});

describe('project and user files, skills, sessions, MCP servers', () => {
  test('a configuration key with escapes (the warning on stderr names it)', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      userFile(s, '.mewcode/config.yaml', JSON.stringify({ mcp: { [`unknown${EVIL}key`]: EVIL } }));
      const result = await s.run(['-p', 'hi']);
      assertClean('config warnings', result);
      expect(result.stderr).toContain('Unknown key');
    });
  });

  test('a plugin’s warnings and notices (the output route)', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const message = JSON.stringify(`noisy ${EVIL} end`);
      userFile(s, '.mewcode/noisy-plugin.mjs', `export default { name: 'noisy', apply(kernel) { kernel.warn(${message}); kernel.notify('notice', ${message}); } };\n`);
      userFile(s, '.mewcode/config.yaml', stringify({ plugins: ['./noisy-plugin.mjs'] }));
      const result = await s.run(['-p', 'hi']);
      assertClean('plugin warnings', result);
      expect(result.stderr).toContain('noisy');
    });
  });

  test('mewcode skills: a skill whose description and name carry escapes', async () => {
    await scenario([], async (s) => {
      const quoted = asciiJson(`Looks harmless ${EVIL} really`);
      userFile(s, '.mewcode/skills/evil/SKILL.md', `---\nname: evil\ndescription: ${quoted}\n---\nbody\n`);
      userFile(s, `.mewcode/skills/odd${'\u001b]0;x\u0007'}name/SKILL.md`, `---\ndescription: ${quoted}\n---\nbody\n`);
      const result = await s.run(['skills']);
      assertClean('mewcode skills', result);
      expect(result.stdout).toContain('Looks harmless');
    });
  });

  test('mewcode sessions: a session whose title (the first prompt) carries escapes', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const first = await s.run(['-p', `title ${EVIL} end`]);
      expect(first.code).toBe(0);
      const result = await s.run(['sessions']);
      assertClean('mewcode sessions', result);
      expect(result.stdout).toContain('title');
    });
  });

  test('an MCP server that fails with hostile stderr: at run time and in mewcode mcp list', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const server = printingScript(s, 'server.sh', 'stderr', 1, 'crashing', false);
      // A server that speaks MCP but refuses to initialise, with a crafted JSON-RPC error message.
      const refusing = userFile(
        s,
        'refusing.mjs',
        `import { createInterface } from 'node:readline';\nfor await (const line of createInterface({ input: process.stdin })) {\n  const message = JSON.parse(line);\n  if (message.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: ${JSON.stringify(`refused ${EVIL} end`)} } }) + '\\n');\n}\n`,
      );
      const servers = { [`db${EVIL}`]: { type: 'stdio', command: server, args: [`--x${EVIL}`] }, other: { type: 'stdio', command: `missing${EVIL}` }, crashing: { type: 'stdio', command: server } };
      userFile(s, '.mewcode/config.yaml', stringify({ mcp_servers: { ...servers, refusing: { type: 'stdio', command: process.execPath, args: [refusing] } }, mcp: { startup_wait_ms: 5000 } }));
      const run = await s.run(['-p', 'hi']);
      assertClean('MCP failures at run time', run);
      expect(run.stderr).toContain('refused');
      const list = await s.run(['mcp', 'list']);
      assertClean('mewcode mcp list', list);
      expect(list.stdout).toContain('crashing  failed');
      expect(list.stdout).toMatch(/stderr: crashing .*end/);
      expect(list.stdout).toContain('missing');
      expect(list.stdout).toContain('refused');
    });
  });

  test('a project directory whose name carries escapes, with settings that need trust (notices quote the path)', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const project = path.join(s.cwd, `repo${'\u001b]0;owned\u0007'}${'\u009b2J'}name`);
      mkdirSync(project);
      writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { [`db${EVIL}`]: { command: `evil${EVIL}` } } }));
      const runIn = (args: string[]) => runCli(args, { cwd: project, env: s.env });
      for (const [name, args] of [['-p', ['-p', 'hi']], ['sessions', ['sessions']], ['mcp list', ['mcp', 'list']], ['hooks', ['hooks']], ['doctor', ['doctor']]] as const) {
        const result = await runIn([...args]);
        assertClean(`project path in ${name}`, result);
        if (name === '-p' || name === 'mcp list' || name === 'doctor') expect(result.stdout + result.stderr).toContain('repo');
      }
    });
  });

  test('mewcode doctor with hostile configuration', async () => {
    await scenario([], async (s) => {
      userFile(s, '.mewcode/config.yaml', JSON.stringify({ mcp: { [`unknown${EVIL}key`]: 1 }, mcp_servers: { [`db${EVIL}`]: { type: 'stdio', command: `missing${EVIL}` } } }));
      const result = await s.run(['doctor']);
      assertClean('mewcode doctor', result);
    });
  });

  test('mewcode audit verify of a crafted log', async () => {
    await scenario([], async (s) => {
      const file = path.join(s.cwd, `audit${'\u001b]0;x\u0007'}.jsonl`);
      writeFileSync(file, `${JSON.stringify({ type: EVIL, prev: EVIL })}\n`);
      const result = await s.run(['audit', 'verify', '--file', file]);
      assertClean('mewcode audit verify', result);
    });
  });
});

describe('the JSON formats carry the exact text, escaped', () => {
  test.each(['json', 'stream-json'])('--output-format %s', async (format) => {
    const text = `Hello ${EVIL} \u202eworld`;
    await scenario([{ text }], async (s) => {
      const result = await s.run(['-p', 'hi', '--output-format', format, ...(format === 'stream-json' ? ['--verbose'] : [])]);
      expect(result.code).toBe(0);
      assertClean(`--output-format ${format}`, result);
      const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
      expect(lines.at(-1).result).toBe(text);
    });
  });
});

describe('the terminal UI in a real terminal (tmux)', () => {
  test('a hostile answer and hostile hook output neither set the clipboard or the title nor clear the screen', async () => {
    await scenario([{ text: `Hello ${EVIL}\u001b[2J\u001b[3J\u001bc world` }], async (s) => {
      const failing = printingScript(s, 'fail.sh', 'stderr', 1, 'failing');
      userFile(s, '.mewcode/settings.yaml', JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: failing }] }] } }));
      const terminal = new TmuxTerminal();
      try {
        // Trusted: the user's hooks run on the host (in an untrusted project the sandbox hides this /tmp home).
        terminal.start(await prepareCli(), [], s.cwd, { ...s.env, MEWCODE_TRUST_PROJECT: '1' });
        // tmux takes an application's OSC 52 into a paste buffer only with set-clipboard on.
        terminal.command('set-option', '-s', 'set-clipboard', 'on');
        const title = terminal.command('display-message', '-p', '-t', 'main', '#{pane_title}');
        await terminal.waitFor('type a prompt, / for commands');
        terminal.type('first prompt');
        terminal.keys('Enter');
        const screen = await terminal.waitFor(/Hello [^\n]*world/, 'the answer');
        await new Promise((resolve) => setTimeout(resolve, 300)); // let anything written after the answer arrive
        const buffers = terminal.command('list-buffers');
        const titleAfter = terminal.command('display-message', '-p', '-t', 'main', '#{pane_title}');
        const cleared = !terminal.screen(true).includes('first prompt');
        tally.attempt('TUI: OSC 52 clipboard write', buffers.trim() !== '');
        tally.attempt('TUI: OSC 0 title', titleAfter !== title);
        tally.attempt('TUI: screen and scrollback cleared (CSI 2J/3J, RIS)', cleared);
        expect({ buffers: buffers.trim(), titleAfter, cleared }).toEqual({ buffers: '', titleAfter: title, cleared: false });
        expect(screen).toContain('failing');
        // Leave as a user does and wait for the exit, so nothing writes into the project while
        // the test removes it.
        await terminal.waitFor('type a prompt, / for commands', 'an idle prompt');
        terminal.keys('C-c');
        await terminal.waitFor('Press Ctrl+C again to exit');
        terminal.keys('C-c');
        await terminal.waitFor(EXITED, 'the exit line');
      } finally {
        terminal.kill();
      }
    });
  }, 60_000);
});
