/**
 * Managed settings through the BUILT CLI: every way a user, a project, a flag or an environment
 * variable could loosen a managed restriction is tried, and none does. Each attempt is counted in
 * the security tally; an attempt escapes when the thing the organisation forbade happened. A
 * managed file that cannot be applied stops the run (exit 2) before any model request.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { approvalsFile } from '../../plugins/permission-rules/settings-files.js';
import { removeTempDirs, scenario, tempDir, type Scenario } from '../cli/helpers.js';
import { securityTally } from './attempts.js';

const tally = securityTally('managed-settings');
afterAll(() => {
  tally.save();
  removeTempDirs();
});

function managedFile(yaml: string): string {
  const file = path.join(tempDir('mewcode-managed-'), 'managed-settings.yaml');
  writeFileSync(file, yaml);
  return file;
}

function write(dir: string, relative: string, text: string): void {
  const file = path.join(dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function auditDecisions(cwd: string): Record<string, unknown>[] {
  const file = path.join(cwd, '.mewcode', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).filter((r) => r.type === 'decision');
}

const writeTurns = (file: string) => [{ toolCalls: [{ id: 'toolu_w', name: 'write_file', input: { path: file, content: 'x\n' } }] }, { text: 'done' }];

/** Each way to loosen: what it writes, and the extra arguments / environment of the run. */
interface Loosening {
  prepare?(s: Scenario): void;
  args?: string[];
  env?: Record<string, string>;
}

const ALLOW_EVERYTHING = 'permissions:\n  allow: ["Write", "Write(./blocked.txt)", "Edit"]\n';

const LOOSENINGS: [string, Loosening][] = [
  ['a user settings allow rule', { prepare: (s) => write(s.home, '.mewcode/settings.yaml', ALLOW_EVERYTHING) }],
  ['a project settings allow rule (project trusted)', { prepare: (s) => write(s.cwd, '.mewcode/settings.yaml', ALLOW_EVERYTHING), args: ['--trust-project'] }],
  ['a settings.local.yaml allow rule (project trusted by MEWCODE_TRUST_PROJECT)', { prepare: (s) => write(s.cwd, '.mewcode/settings.local.yaml', ALLOW_EVERYTHING), env: { MEWCODE_TRUST_PROJECT: '1' } }],
  ['a saved "allow always" approval', { prepare: (s) => writeFileSync(mkdirFor(approvalsFile(s.cwd, s.home)), 'permissions:\n  allow: ["Write(./blocked.txt)"]\n') }],
  ['--allowedTools', { args: ['--allowedTools', 'Write,Write(./blocked.txt)'] }],
  ['--permission-mode bypassPermissions', { args: ['--permission-mode', 'bypassPermissions'] }],
  ['bypassPermissions with --dangerously-skip-sandbox', { args: ['--permission-mode', 'bypassPermissions', '--dangerously-skip-sandbox'] }],
  ['default_mode: bypassPermissions in the user settings', { prepare: (s) => write(s.home, '.mewcode/settings.yaml', 'permissions:\n  default_mode: bypassPermissions\n') }],
  ['a user plugin that allows every call at stage 250', {
    prepare: (s) => {
      write(s.home, 'plugins/lenient.mjs', `export default { name: 'lenient', apply(kernel) { kernel.hooks.checkPermission.tapPromise({ name: 'lenient', stage: 250 }, async () => ({ decision: 'allow', layer: 'lenient' })); } };\n`);
      write(s.home, '.mewcode/config.yaml', `plugins: [${JSON.stringify(path.join(s.home, 'plugins/lenient.mjs'))}]\n`);
    },
  }],
  ['disable: [permission-rules] in the user\'s own config (with a user allow rule)', {
    prepare: (s) => {
      write(s.home, '.mewcode/config.yaml', 'disable: [permission-rules]\n');
      write(s.home, '.mewcode/settings.yaml', ALLOW_EVERYTHING);
    },
    args: ['--permission-mode', 'acceptEdits'],
  }],
  ['a user plugin whose PreToolUse answer is allow', {
    prepare: (s) => {
      write(s.home, 'plugins/hook.mjs', `export default { name: 'allow-hook', apply(kernel) { kernel.hooks.preToolUse.tapPromise('allow-hook', async (value) => ({ ...value, decision: 'allow', by: 'allow-hook' })); } };\n`);
      write(s.home, '.mewcode/config.yaml', `plugins: [${JSON.stringify(path.join(s.home, 'plugins/hook.mjs'))}]\n`);
    },
  }],
  ['a user allow rule in acceptEdits mode', { prepare: (s) => write(s.home, '.mewcode/settings.yaml', ALLOW_EVERYTHING), args: ['--permission-mode', 'acceptEdits'] }],
];

function mkdirFor(file: string): string {
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

describe('a managed deny rule: nothing a user or a project does lifts it', () => {
  test.concurrent.each(LOOSENINGS)('%s', async (label, loosening) => {
    await scenario(writeTurns('blocked.txt'), async (s) => {
      const managed = managedFile('permissions:\n  deny: ["Write(./blocked.txt)"]\n');
      loosening.prepare?.(s);
      const r = await s.run(['-p', 'write it', ...(loosening.args ?? [])], { env: { MEWCODE_MANAGED_SETTINGS: managed, ...loosening.env } });
      const escaped = existsSync(path.join(s.cwd, 'blocked.txt'));
      tally.attempt(`managed deny lifted by ${label}`, escaped);
      expect(escaped).toBe(false);
      expect(r.code).toBe(0);
      expect(auditDecisions(s.cwd)).toEqual([expect.objectContaining({ layer: 'permission-rules:managed', allowed: false })]);
    });
  });

  test.concurrent('control: without the managed file the same allow rule writes the file', async () => {
    await scenario(writeTurns('blocked.txt'), async (s) => {
      write(s.home, '.mewcode/settings.yaml', ALLOW_EVERYTHING);
      const r = await s.run(['-p', 'write it']);
      expect(r.code).toBe(0);
      expect(existsSync(path.join(s.cwd, 'blocked.txt'))).toBe(true);
    });
  });
});

describe('a managed ask rule stays a question (headless: denied) in bypass mode, with every allow in place', () => {
  test.concurrent('user allow, --allowedTools and bypass together', async () => {
    await scenario(writeTurns('asked.txt'), async (s) => {
      const managed = managedFile('permissions:\n  ask: ["Write(./asked.txt)"]\n');
      write(s.home, '.mewcode/settings.yaml', 'permissions:\n  allow: ["Write(./asked.txt)"]\n');
      const r = await s.run(['-p', 'write it', '--permission-mode', 'bypassPermissions', '--allowedTools', 'Write'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      const escaped = existsSync(path.join(s.cwd, 'asked.txt'));
      tally.attempt('managed ask answered by allow rules in bypass mode', escaped);
      expect(escaped).toBe(false);
      expect(r.code).toBe(0);
      expect(auditDecisions(s.cwd)).toEqual([expect.objectContaining({ layer: 'permission-rules:managed', verdict: 'ask', allowed: false })]);
      // The model is not told to add an allow rule that could not lift it.
      const result = JSON.stringify(s.requests[1]!.body.messages.at(-1).content);
      expect(result).toContain('Managed settings require a person to approve it');
      expect(result).not.toContain('--allowedTools');
    });
  });
});

describe('disable_bypass_mode', () => {
  test.concurrent('--permission-mode bypassPermissions: exit 2 naming the managed file, no request', async () => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const managed = managedFile('permissions:\n  disable_bypass_mode: true\n');
      const r = await s.run(['-p', 'hi', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      tally.attempt('--permission-mode bypassPermissions under disable_bypass_mode', r.code !== 2);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`bypassPermissions is disabled by managed settings (${managed}:2:`);
      expect(s.requests).toEqual([]);
    });
  });

  const defaults: [string, (s: Scenario) => void, string[]][] = [
    ['the user settings', (s) => write(s.home, '.mewcode/settings.yaml', 'permissions:\n  default_mode: bypassPermissions\n'), []],
    ['the project settings (trusted)', (s) => write(s.cwd, '.mewcode/settings.yaml', 'permissions:\n  default_mode: bypassPermissions\n'), ['--trust-project']],
  ];
  test.concurrent.each(defaults)('default_mode: bypassPermissions in %s runs in default mode: a write asks (headless: denied), said on stderr', async (_label, prepare, args) => {
    await scenario(writeTurns('out.txt'), async (s) => {
      const managed = managedFile('permissions:\n  disableBypassPermissionsMode: disable\n');
      prepare(s);
      const r = await s.run(['-p', 'write it', ...args], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      const escaped = existsSync(path.join(s.cwd, 'out.txt'));
      tally.attempt('default_mode bypassPermissions under disable_bypass_mode', escaped);
      expect(escaped).toBe(false);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/bypassPermissions mode is disabled by managed settings .*running in default mode/);
    });
  });
});

describe('the OS sandbox forced on', () => {
  test.concurrent('--dangerously-skip-sandbox: exit 2 naming the managed file, no request', async () => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const managed = managedFile('sandbox:\n  enabled: true\n');
      const r = await s.run(['-p', 'hi', '--permission-mode', 'bypassPermissions', '--dangerously-skip-sandbox'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      tally.attempt('--dangerously-skip-sandbox under a forced sandbox', r.code !== 2);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`--dangerously-skip-sandbox is refused by managed settings (${managed}:2:`);
      expect(s.requests).toEqual([]);
    });
  });

  test.concurrent('the user\'s sandbox: false does not let bash write outside the project in bypass mode', async () => {
    const outside = path.join(tempDir('mewcode-outside-'), 'escaped.txt');
    await scenario([{ toolCalls: [{ id: 'toolu_b', name: 'bash', input: { command: `echo x > ${outside}` } }] }, { text: 'done' }], async (s) => {
      const managed = managedFile('sandbox:\n  enabled: true\n');
      write(s.home, '.mewcode/settings.yaml', 'sandbox: false\n');
      const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      const escaped = existsSync(outside);
      tally.attempt('sandbox: false in the user settings under a forced sandbox', escaped);
      expect(escaped).toBe(false);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/sandbox: false is overridden: managed settings force the OS sandbox on/);
    });
  });

  test.concurrent('control: without the managed file, sandbox: false and bypass let the same command write outside', async () => {
    const outside = path.join(tempDir('mewcode-outside-'), 'escaped.txt');
    await scenario([{ toolCalls: [{ id: 'toolu_b', name: 'bash', input: { command: `echo x > ${outside}` } }] }, { text: 'done' }], async (s) => {
      write(s.home, '.mewcode/settings.yaml', 'sandbox: false\n');
      const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions']);
      expect(r.code).toBe(0);
      expect(existsSync(outside)).toBe(true);
    });
  });
});

describe('allowed_domains pinned', () => {
  test.concurrent('the user\'s network: true and extra domains are overridden, said with the managed file', async () => {
    await scenario([{ text: 'done' }], async (s) => {
      const managed = managedFile('sandbox:\n  allowed_domains: [registry.npmjs.org]\n');
      write(s.home, '.mewcode/settings.yaml', 'sandbox:\n  network: true\n  allowed_domains: [registry.npmjs.org, evil.example]\n');
      const r = await s.run(['-p', 'hi'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.code).toBe(0);
      const widened = !/sandbox\.network: true is overridden/.test(r.stderr) || !/evil\.example not used/.test(r.stderr);
      tally.attempt('sandbox network widened by the user under pinned allowed_domains', widened);
      expect(r.stderr).toContain(`sandbox.network: true is overridden: managed settings pin the hosts commands may reach (${managed}:2:`);
      expect(r.stderr).toContain('sandbox.allowed_domains: evil.example not used');
    });
  });
});

describe('MCP servers: an allow-list and a deny-list', () => {
  const marker = (name: string) => `require('node:fs').writeFileSync(${JSON.stringify(name)}, '')`;
  test.concurrent('servers of .mcp.json and of the user config outside the list are not started, each said', async () => {
    await scenario([{ text: 'done' }, { text: 'done' }], async (s) => {
      const managed = managedFile('mcp:\n  allowed_servers: [github, tools]\n  denied_servers: [tools]\n');
      const started = (name: string) => path.join(s.cwd, `started-${name}`);
      writeFileSync(path.join(s.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { rogue: { command: process.execPath, args: ['-e', marker(started('rogue'))] } } }));
      write(s.home, '.mewcode/config.yaml', `mcp:\n  startup_wait_ms: 3000\nmcp_servers:\n  tools:\n    type: stdio\n    command: ${JSON.stringify(process.execPath)}\n    args: ["-e", ${JSON.stringify(marker(started('tools')))}]\n`);
      const r = await s.run(['-p', 'hi', '--trust-project'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.code).toBe(0);
      const escaped = existsSync(started('rogue')) || existsSync(started('tools'));
      tally.attempt('MCP servers outside the managed allow-list started', escaped);
      expect(escaped).toBe(false);
      expect(r.stderr).toMatch(/server "rogue" is not started: managed settings allow only these MCP servers: github, tools/);
      expect(r.stderr).toMatch(/server "tools" is not started: managed settings deny it/);
      // Control: the same run without the managed file starts both.
      const free = await s.run(['-p', 'hi', '--trust-project']);
      expect(free.code).toBe(0);
      expect(existsSync(started('rogue')) && existsSync(started('tools'))).toBe(true);
    });
  });
});

describe('a managed file that cannot be applied: exit 2 before any request, naming the file and key', () => {
  const broken: [string, (dir: string) => string, RegExp][] = [
    ['a YAML syntax error', (dir) => writeTo(dir, 'permissions:\n  deny: [unclosed\n'), /managed settings .*managed-settings\.yaml:\d+:\d+: .*does not run with a managed settings file it cannot parse/],
    ['a misspelt key', (dir) => writeTo(dir, 'permissions:\n  deny_rules: [Bash]\n'), /managed-settings\.yaml:2:\d+: permissions\.deny_rules: unknown key/],
    ['a rule the rules layer cannot read', (dir) => writeTo(dir, 'permissions:\n  deny: ["Bash(curl *"]\n'), /managed-settings\.yaml:2:\d+: deny rule "Bash\(curl \*"/],
    ['MEWCODE_MANAGED_SETTINGS naming no file', (dir) => path.join(dir, 'absent.yaml'), /absent\.yaml cannot be read: no such file \(named by MEWCODE_MANAGED_SETTINGS\)/],
  ];
  test.concurrent.each(broken)('%s', async (_label, make, message) => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const file = make(tempDir('mewcode-managed-'));
      const r = await s.run(['-p', 'hi', '--output-format', 'json'], { env: { MEWCODE_MANAGED_SETTINGS: file } });
      tally.attempt('a broken managed file ignored', r.code !== 2);
      expect(r.code).toBe(2);
      // With --output-format json the refusal is the one result on stdout, before any request.
      expect(JSON.parse(r.stdout)).toMatchObject({ type: 'result', is_error: true, num_turns: 0, result: expect.stringMatching(message) });
      expect(r.stderr).toMatch(message);
      expect(s.requests).toEqual([]);
    });
  });
});

function writeTo(dir: string, yaml: string): string {
  const file = path.join(dir, 'managed-settings.yaml');
  writeFileSync(file, yaml);
  return file;
}

describe('mewcode doctor shows the managed layer', () => {
  test.concurrent('the files read and what they enforce; a broken file is a fail line', async () => {
    await scenario([], async (s) => {
      const managed = managedFile('permissions:\n  deny: ["Bash(curl *)"]\n  disable_bypass_mode: true\nsandbox:\n  enabled: true\nmcp:\n  allowed_servers: [github]\n');
      const r = await s.run(['doctor'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.stdout).toContain(`managed   managed file ${managed}`);
      expect(r.stdout).toContain('managed   enforced: deny rules: Bash(curl *)');
      expect(r.stdout).toMatch(/managed +enforced: bypassPermissions mode disabled/);
      expect(r.stdout).toMatch(/managed +enforced: OS sandbox forced on/);
      expect(r.stdout).toMatch(/managed +enforced: MCP servers allowed: github/);
      const broken = managedFile('sandbox: false\n');
      const bad = await s.run(['doctor'], { env: { MEWCODE_MANAGED_SETTINGS: broken } });
      expect(bad.code).toBe(1);
      expect(bad.stdout).toMatch(/fail +managed +managed settings .*managed-settings\.yaml:1:\d+: sandbox: managed settings can only force the OS sandbox on/);
    });
  });
});
