/** The command line: rule lists, Claude Code's flags, and what counts as "given". */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HELP, parseCommandLine } from '../../bin/cli-args.js';
import { SETTINGS_FILE_SCOPES, settingsFilesOf } from '../../config/settings-files.js';
import { splitRuleList } from '../../sdk/subcommand-args.js';
import { runPluginSubcommand } from '../../bin/subcommands.js';
import { listHooks } from '../../plugins/hooks/hooks-subcommand.js';
import { runMcpCommand } from '../../plugins/mcp/mcp-subcommand.js';
import { runAuditCommand } from '../../plugins/permission-audit/audit-subcommand.js';
import { capturedContext } from '../support/subcommand-context.js';

test('rule lists split on commas and spaces outside parentheses, and repeat', () => {
  expect(splitRuleList(['Bash(git log:*),Read', 'Edit Bash(npm run test:*)'])).toEqual(['Bash(git log:*)', 'Read', 'Edit', 'Bash(npm run test:*)']);
  expect(splitRuleList(['Bash(echo a, b)'])).toEqual(['Bash(echo a, b)']);
  expect(splitRuleList([' , '])).toEqual([]);
});

test('-p with flags Claude Code scripts pass; the permission mode records whether it was given', () => {
  const parsed = parseCommandLine(['-p', 'hi', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read,Bash(ls)'], '/work');
  expect(parsed).toMatchObject({ kind: 'run', options: { prompt: 'hi', outputFormat: 'stream-json', permissionMode: 'default', permissionModeGiven: false, allowedTools: ['Read', 'Bash(ls)'], disallowedTools: [] } });
  expect(parseCommandLine(['-p', 'x', '--permission-mode', 'plan'], '/')).toMatchObject({ options: { permissionMode: 'plan', permissionModeGiven: true } });
});

test('--allowedTools / --disallowedTools take several rules in a row (also kebab-case); a word after them is a rule, the prompt or an error', () => {
  const run = (...argv: string[]) => parseCommandLine(argv, '/');
  expect(run('-p', 'tidy up', '--disallowedTools', 'Write', 'Edit')).toMatchObject({ kind: 'run', options: { prompt: 'tidy up', disallowedTools: ['Write', 'Edit'] } });
  expect(run('-p', 'go', '--disallowed-tools', 'Bash(git log:*)', 'Bash(git diff:*)', 'Edit', '--allowed-tools', 'Read', 'mcp__github', 'todo_write')).toMatchObject({
    options: { prompt: 'go', disallowedTools: ['Bash(git log:*)', 'Bash(git diff:*)', 'Edit'], allowedTools: ['Read', 'mcp__github', 'todo_write'] },
  });
  // Not a rule: the prompt, and the list ends there.
  expect(run('-p', '--allowedTools', 'Read', 'Edit the parser', 'Write')).toMatchObject({ options: { prompt: 'Edit the parser Write', allowedTools: ['Read'] } });
  // A tool-like word is a rule; after `--` everything is the prompt.
  expect(run('--allowedTools', 'Read', 'Edit', '--')).toMatchObject({ options: { allowedTools: ['Read', 'Edit'] } });
  expect(run('-p', 'x', '--allowedTools', 'Read', 'Edit')).toMatchObject({ options: { prompt: 'x', allowedTools: ['Read', 'Edit'] } });
  expect(run('--allowedTools', 'Read', '--', 'Edit')).toMatchObject({ options: { prompt: 'Edit', allowedTools: ['Read'] } });
  expect(run('-p', 'x', '--disallowedTools', 'Write', 'Bash(rm:*) and more')).toEqual({ kind: 'error', message: expect.stringContaining('mixes tool rules and other words') });
  // Another flag's value is that flag's.
  expect(run('-p', 'x', '--allowedTools', 'Read', '--model', 'Edit')).toMatchObject({ options: { allowedTools: ['Read'], model: 'Edit' } });
});

test('a rule word that would leave no prompt on the command line (stdin or none) is a usage error, not a silent allow rule', () => {
  const run = (...argv: string[]) => parseCommandLine(argv, '/');
  // `mewcode -p --allowedTools Read "$TITLE" < body.txt` with a title that names a tool.
  for (const title of ['Write', 'Bash', 'Edit Write', 'Bash(rm:*)', 'mcp__github']) {
    expect(run('-p', '--allowedTools', 'Read', title)).toEqual({ kind: 'error', message: expect.stringContaining(`"${title}" after --allowedTools is the last word of the command line`) });
  }
  expect(run('--disallowed-tools', 'Bash', 'Edit')).toEqual({ kind: 'error', message: expect.stringContaining('after --disallowed-tools') });
  expect(run('-p', '--allowedTools', 'Read', 'Write', '--verbose')).toEqual({ kind: 'error', message: expect.stringContaining('"Write"') });
  // Unambiguous: the flag's own value, one value, a list ended by `--`, the prompt after `--`, or a prompt elsewhere.
  expect(run('-p', '--allowedTools', 'Read')).toMatchObject({ kind: 'run', options: { allowedTools: ['Read'] } });
  expect(run('-p', '--allowedTools', 'Read,Write')).toMatchObject({ kind: 'run', options: { allowedTools: ['Read', 'Write'] } });
  expect(run('-p', '--allowedTools', 'Read', 'Write', '--')).toMatchObject({ kind: 'run', options: { allowedTools: ['Read', 'Write'] } });
  expect(run('-p', '--allowedTools', 'Read', '--', 'Write')).toMatchObject({ kind: 'run', options: { prompt: 'Write', allowedTools: ['Read'] } });
  expect(run('-p', '--allowedTools', 'Read', 'Write', 'fix the bug')).toMatchObject({ kind: 'run', options: { prompt: 'fix the bug', allowedTools: ['Read', 'Write'] } });
  expect(run('-p', '--allowedTools', 'Read', '--allowedTools', 'Write')).toMatchObject({ kind: 'run', options: { allowedTools: ['Read', 'Write'] } });
});

test('--permission-mode takes Claude Code\'s names (manual, dontAsk); auto is refused; --dangerously-skip-permissions is bypassPermissions', () => {
  const run = (...argv: string[]) => parseCommandLine(['-p', 'x', ...argv], '/');
  expect(run('--permission-mode', 'manual')).toMatchObject({ options: { permissionMode: 'default', permissionModeGiven: true } });
  expect(run('--permission-mode', 'dontAsk')).toMatchObject({ options: { permissionMode: 'default', permissionModeGiven: true, dontAsk: true } });
  expect(run('--permission-mode', 'plan')).not.toHaveProperty('options.dontAsk');
  expect(run('--dangerously-skip-permissions')).toMatchObject({ options: { permissionMode: 'bypassPermissions', permissionModeGiven: true } });
  expect(run('--dangerously-skip-permissions', '--permission-mode', 'bypassPermissions')).toMatchObject({ options: { permissionMode: 'bypassPermissions' } });
  expect(run('--dangerously-skip-permissions', '--permission-mode', 'acceptEdits')).toEqual({ kind: 'error', message: expect.stringContaining('cannot be combined') });
  expect(run('--permission-mode', 'auto')).toEqual({ kind: 'error', message: expect.stringContaining('no MewCode equivalent') });
  expect(run('--permission-mode', 'yolo')).toEqual({ kind: 'error', message: expect.stringContaining('default, acceptEdits, plan, bypassPermissions, dontAsk, manual') });
});

test('--append-system-prompt (Claude Code\'s flag) carries the text; an empty one adds nothing', () => {
  expect(parseCommandLine(['-p', 'x', '--append-system-prompt', 'Answer in French.'], '/')).toMatchObject({ kind: 'run', options: { appendSystemPrompt: 'Answer in French.' } });
  expect(parseCommandLine(['-p', 'x', '--append-system-prompt', ' '], '/')).not.toHaveProperty('options.appendSystemPrompt');
  expect(HELP).toContain('--append-system-prompt <text>');
});

test('a bad flag is an error naming it, without parseArgs\' advice about "--"', () => {
  expect(parseCommandLine(['--bogus'], '/')).toEqual({ kind: 'error', message: "Unknown option '--bogus'. Run mewcode --help for the options." });
});

describe('--mcp-config (Claude Code\'s flag): servers this run adds', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mewcode-mcp-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads files (relative to the working directory) and inline JSON, repeatable; a later value\'s server of a name replaces an earlier one', () => {
    writeFileSync(path.join(dir, 'a.json'), JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['fs'] }, web: { type: 'http', url: 'http://x/mcp' } } }));
    const parsed = parseCommandLine(['-p', 'x', '--mcp-config', 'a.json', '--mcp-config', '{"mcpServers": {"web": {"type": "sse", "url": "http://y/sse"}}}'], dir);
    expect(parsed).toMatchObject({
      kind: 'run',
      options: {
        mcpServers: { fs: { command: 'npx', args: ['fs'] }, web: { type: 'sse', url: 'http://y/sse' } },
        mcpServerOrigins: { fs: path.join(dir, 'a.json'), web: '--mcp-config' },
      },
    });
    expect(parseCommandLine(['-p', 'x'], dir)).not.toHaveProperty('options.mcpServers');
  });

  it('a value that cannot be used is an error naming the file (exit 2), not a run without the servers', () => {
    writeFileSync(path.join(dir, 'broken.json'), '{"mcpServers": {');
    writeFileSync(path.join(dir, 'list.json'), '{"mcpServers": []}');
    const error = (value: string) => {
      const parsed = parseCommandLine(['-p', 'x', '--mcp-config', value], dir);
      expect(parsed.kind).toBe('error');
      return (parsed as { message: string }).message;
    };
    expect(error('missing.json')).toBe(`--mcp-config ${path.join(dir, 'missing.json')}: cannot be read: no such file`);
    expect(error('broken.json')).toMatch(new RegExp(`^--mcp-config ${path.join(dir, 'broken.json')}: not valid JSON: `));
    expect(error('list.json')).toBe(`--mcp-config ${path.join(dir, 'list.json')}: expected {"mcpServers": {<name>: {…}}}, as in .mcp.json`);
    expect(error(dir)).toBe(`--mcp-config ${dir}: it is a directory, not a regular file`);
    expect(error('{"servers": {}}')).toBe('--mcp-config: expected {"mcpServers": {<name>: {…}}}, as in .mcp.json');
    expect(error(' ')).toMatch(/^--mcp-config needs a JSON file or a JSON text/);
  });
});

test('plugin marketplace … and plugin install|uninstall|enable|disable (Claude Code plugins)', () => {
  expect(parseCommandLine(['plugin', 'marketplace', 'add', './market'], '/w')).toEqual({ kind: 'plugin', action: 'marketplace', verb: 'add', target: './market', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'market', 'rm', 'team'], '/w')).toEqual({ kind: 'plugin', action: 'marketplace', verb: 'remove', target: 'team', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'marketplace'], '/w')).toEqual({ kind: 'plugin', action: 'marketplace', verb: 'list', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'marketplace', 'update'], '/w')).toEqual({ kind: 'plugin', action: 'marketplace', verb: 'update', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'marketplace', 'update', 'team'], '/w')).toEqual({ kind: 'plugin', action: 'marketplace', verb: 'update', target: 'team', cwd: '/w' });
  for (const action of ['install', 'uninstall', 'enable', 'disable'] as const) {
    expect(parseCommandLine(['plugin', action, 'fmt@team'], '/w')).toEqual({ kind: 'plugin', action, target: 'fmt@team', cwd: '/w' });
  }
  expect(parseCommandLine(['plugin', 'marketplace', 'add'], '/w')).toMatchObject({ kind: 'error', message: expect.stringMatching(/usage: mewcode plugin marketplace add/) });
  expect(parseCommandLine(['plugin', 'enable', 'a', 'b'], '/w')).toMatchObject({ kind: 'error', message: expect.stringMatching(/plugin enable takes one <plugin>\[@<marketplace>\]/) });
  expect(HELP).toMatch(/^ {2}plugin install <plugin>\[@<marketplace>\]$/m);
});

test("Claude Code's --scope on plugin commands: user (its default) is what MewCode does; project and local say where a project enables plugins", () => {
  expect(parseCommandLine(['plugin', 'install', 'fmt@team', '--scope', 'user'], '/w')).toEqual({ kind: 'plugin', action: 'install', target: 'fmt@team', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'update', 'fmt', '-s', 'user'], '/w')).toEqual({ kind: 'plugin', action: 'update', target: 'fmt', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'marketplace', 'add', './m', '--scope=user'], '/w')).toEqual({ kind: 'plugin', action: 'marketplace', verb: 'add', target: './m', cwd: '/w' });
  expect(parseCommandLine(['plugin', 'install', 'fmt@team', '--scope', 'project'], '/w')).toMatchObject({ kind: 'error', message: expect.stringMatching(/--scope project: Claude Code plugins are installed for you; a project enables them with enabledPlugins in \.claude\/settings\.json/) });
});

describe('trust and sandbox flags', () => {
  it('are always set, false by default', () => {
    expect(parseCommandLine(['-p', 'x'], '/', {})).toMatchObject({ kind: 'run', options: { trustProject: false, dangerouslySkipSandbox: false } });
  });

  it('--trust-project and --dangerously-skip-sandbox', () => {
    expect(parseCommandLine(['--trust-project', '--dangerously-skip-sandbox', '-p', 'x'], '/', {})).toMatchObject({ options: { trustProject: true, dangerouslySkipSandbox: true } });
  });

  it('MEWCODE_TRUST_PROJECT=1 (or true) trusts for CI; other values do not', () => {
    expect(parseCommandLine(['-p', 'x'], '/', { MEWCODE_TRUST_PROJECT: '1' })).toMatchObject({ options: { trustProject: true } });
    expect(parseCommandLine(['-p', 'x'], '/', { MEWCODE_TRUST_PROJECT: 'TRUE' })).toMatchObject({ options: { trustProject: true } });
    for (const value of ['0', '', 'no', 'yes please']) {
      expect(parseCommandLine(['-p', 'x'], '/', { MEWCODE_TRUST_PROJECT: value })).toMatchObject({ options: { trustProject: false } });
    }
  });

  it('the environment never turns on the sandbox escape', () => {
    expect(parseCommandLine(['-p', 'x'], '/', { MEWCODE_DANGEROUSLY_SKIP_SANDBOX: '1' })).toMatchObject({ options: { dangerouslySkipSandbox: false } });
  });

  it('are in the help', () => {
    expect(HELP).toContain('--trust-project');
    expect(HELP).toContain('--dangerously-skip-sandbox');
  });
});

describe('audit verify (the command of the permission-audit plugin)', () => {
  it('defaults to the project log under the working directory; --file is resolved against it', async () => {
    const plain = capturedContext(['verify'], { cwd: '/work/p' });
    expect(await runAuditCommand(plain.context)).toBe(2);
    expect(plain.err()).toContain('no audit log at /work/p/.mewcode/audit.jsonl');
    const relative = capturedContext(['verify', '--file', 'logs/a.jsonl'], { cwd: '/work/p' });
    await runAuditCommand(relative.context);
    expect(relative.err()).toContain('no audit log at /work/p/logs/a.jsonl');
    const absolute = capturedContext(['verify', '--file=/abs/b.jsonl'], { cwd: '/work/p' });
    await runAuditCommand(absolute.context);
    expect(absolute.err()).toContain('no audit log at /abs/b.jsonl');
  });

  it('usage errors name the usage (exit 2)', async () => {
    for (const argv of [[], ['erase'], ['verify', 'extra'], ['verify', '--bogus'], ['verify', '--file'], ['verify', '--file', '']]) {
      const run = capturedContext(argv);
      expect(await runAuditCommand(run.context)).toBe(2);
      expect(run.err()).toContain('usage: mewcode audit verify [--file F]');
    }
  });

  it('is a subcommand only as the first word: a prompt that mentions it stays a prompt', async () => {
    expect(parseCommandLine(['-p', 'audit', 'verify'], '/')).toMatchObject({ kind: 'run', options: { prompt: 'audit verify' } });
    expect(await runPluginSubcommand(['-p', 'audit', 'verify'])).toBeUndefined();
    expect(await runPluginSubcommand(['audit the code'])).toBeUndefined();
    expect(parseCommandLine(['audit the code'], '/')).toMatchObject({ kind: 'run', options: { prompt: 'audit the code' } });
  });
});

describe('doctor', () => {
  it('is a subcommand with the run flags that change what it checks', () => {
    expect(parseCommandLine(['doctor'], '/work/p', {})).toEqual({ kind: 'doctor', options: { cwd: '/work/p', trustProject: false } });
    expect(parseCommandLine(['doctor', '--provider', 'work', '--model=m1', '--trust-project'], '/work/p', {})).toEqual({
      kind: 'doctor',
      options: { cwd: '/work/p', provider: 'work', model: 'm1', trustProject: true },
    });
    expect(parseCommandLine(['doctor'], '/w', { MEWCODE_TRUST_PROJECT: '1' })).toMatchObject({ options: { trustProject: true } });
    expect(parseCommandLine(['doctor', '-h'], '/w', {})).toEqual({ kind: 'help' });
  });

  it('usage errors name the usage', () => {
    for (const argv of [['doctor', 'now'], ['doctor', '--bogus'], ['doctor', '--provider'], ['doctor', '--model', ' '], ['doctor', '-p', 'x']]) {
      const parsed = parseCommandLine(argv, '/', {});
      expect(parsed).toMatchObject({ kind: 'error' });
      expect((parsed as { message: string }).message).toContain('usage: mewcode doctor [--provider P] [--model M] [--trust-project]');
    }
  });

  it('only as the first word: a prompt about the doctor stays a prompt', () => {
    expect(parseCommandLine(['-p', 'doctor'], '/', {})).toMatchObject({ kind: 'run', options: { prompt: 'doctor' } });
    expect(parseCommandLine(['doctor this code'], '/', {})).toMatchObject({ kind: 'run', options: { prompt: 'doctor this code' } });
  });

  it('is in the help', () => {
    expect(HELP).toContain('mewcode doctor [--provider P] [--model M] [--trust-project]');
    expect(HELP).toMatch(/^ {2}doctor +check this machine and project/m);
  });
});

describe('mcp list and hooks (commands of the mcp and hooks plugins)', () => {
  it('anything but their one form is an error with the usage, before anything is booted', async () => {
    const cases: [typeof runMcpCommand, string[], string][] = [
      [runMcpCommand, [], 'mewcode: mcp needs a subcommand; usage: mewcode mcp list [--trust-project]\n'],
      [runMcpCommand, ['ad', 'x'], 'mewcode: unknown mcp subcommand "ad x"; usage: mewcode mcp list [--trust-project]\n'],
      [listHooks, ['all'], 'mewcode: hooks takes no arguments (got "all"); usage: mewcode hooks [--trust-project]\n'],
    ];
    for (const [command, argv, message] of cases) {
      const run = capturedContext(argv);
      expect(await command(run.context)).toBe(2);
      expect(run.err()).toBe(message);
    }
    const bogus = capturedContext(['--bogus']);
    expect(await listHooks(bogus.context)).toBe(2);
    expect(bogus.err()).toMatch(/--bogus.*; usage: mewcode hooks \[--trust-project\]\n$/);
  });

  it('-h prints the usage', async () => {
    const run = capturedContext(['-h']);
    expect(await listHooks(run.context)).toBe(0);
    expect(run.out()).toBe('usage: mewcode hooks [--trust-project]\n');
  });
});

describe('the files the help names', () => {
  it('are every configuration layer and every settings file, each with what it holds', () => {
    const home = '/h';
    const root = '/p';
    for (const scope of SETTINGS_FILE_SCOPES) {
      const file = settingsFilesOf(scope, root, home)[0]!;
      const shown = file.startsWith(`${root}/`) ? file.slice(root.length + 1) : `~${file.slice(home.length)}`;
      expect(HELP).toContain(shown);
    }
    for (const file of ['~/.mewcode/config.yaml', '.mewcode.yaml', '.mewcode/config.local.yaml']) expect(HELP).toContain(file);
    const settingsLine = HELP.split('\n').find((line) => /^\s*Settings\b/.test(line));
    expect(settingsLine).toMatch(/permission/);
    expect(settingsLine).toMatch(/hooks/);
    expect(HELP.split('\n').find((line) => /^\s*Configuration\b/.test(line))).toMatch(/providers/);
  });
});
