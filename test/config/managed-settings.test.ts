import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadManagedPolicy, managedFileCandidates, ManagedSettingsError, MANAGED_SETTINGS_ENV, type ManagedFileCandidate } from '../../config/managed-settings.js';
import { describePolicy, isEmptyPolicy, skipSandboxRefusedBy } from '../../types/managed.js';

let base: string;
beforeEach(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'mewcode-managed-'));
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

async function file(name: string, text: string): Promise<ManagedFileCandidate> {
  const full = path.join(base, name);
  await mkdir(path.dirname(full), { recursive: true });
  await writeFile(full, text);
  return { file: full, named: false };
}

const load = (...candidates: ManagedFileCandidate[]) => loadManagedPolicy({ env: {}, candidates });

describe('managed settings files', () => {
  it('the system file of the platform, and MEWCODE_MANAGED_SETTINGS as one more', () => {
    expect(managedFileCandidates({}, 'linux')).toEqual([{ file: '/etc/mewcode/managed-settings.yaml', named: false }]);
    expect(managedFileCandidates({}, 'darwin')).toEqual([{ file: '/Library/Application Support/MewCode/managed-settings.yaml', named: false }]);
    expect(managedFileCandidates({ [MANAGED_SETTINGS_ENV]: '/opt/acme/policy.yaml' }, 'linux')).toEqual([
      { file: '/etc/mewcode/managed-settings.yaml', named: false },
      { file: '/opt/acme/policy.yaml', named: true },
    ]);
  });

  it('no file: an empty policy; a system file that does not exist is not an error', async () => {
    const policy = await load({ file: path.join(base, 'absent.yaml'), named: false });
    expect(isEmptyPolicy(policy)).toBe(true);
    expect(policy.files).toEqual([]);
  });

  it('a file named by MEWCODE_MANAGED_SETTINGS that does not exist fails closed', async () => {
    await expect(load({ file: path.join(base, 'absent.yaml'), named: true })).rejects.toThrow(/absent\.yaml cannot be read: no such file \(named by MEWCODE_MANAGED_SETTINGS\)/);
  });

  it('reads every restriction, with Claude Code spellings', async () => {
    const f = await file(
      'm.yaml',
      [
        'plugins: [acme-policy, { use: ./local.mjs, required: true }]',
        'permissions:',
        '  deny: ["Bash(curl *)"]',
        '  ask: ["Bash(git push *)"]',
        '  disableBypassPermissionsMode: disable',
        '  allowManagedPermissionRulesOnly: true',
        'sandbox:',
        '  enabled: true',
        '  allowedDomains: [Registry.npmjs.org]',
        'allowedMcpServers: [{ serverName: github }]',
        'deniedMcpServers: [{ serverName: shell }]',
      ].join('\n'),
    );
    const policy = await load(f);
    expect(policy.files).toEqual([f.file]);
    expect(policy.plugins.map((p) => [p.use, p.baseDir])).toEqual([
      ['acme-policy', base],
      ['./local.mjs', base],
    ]);
    expect(policy.permissions.deny.map((r) => r.rule)).toEqual(['Bash(curl *)']);
    expect(policy.permissions.ask.map((r) => r.rule)).toEqual(['Bash(git push *)']);
    expect(policy.permissions.disableBypassMode?.where).toBe(`${f.file}:5:33`);
    expect(policy.permissions.managedRulesOnly).toBeDefined();
    expect(policy.sandbox.forceEnabled).toBeDefined();
    expect(skipSandboxRefusedBy(policy)).toBe(policy.sandbox.forceEnabled?.where);
    expect(policy.sandbox.allowedDomains?.value).toEqual(['registry.npmjs.org']);
    expect(policy.mcp.allowedServers?.value).toEqual(['github']);
    expect(policy.mcp.deniedServers.map((r) => r.rule)).toEqual(['shell']);
    expect(describePolicy(policy).join('\n')).toMatch(/requires plugin acme-policy[\s\S]*deny rules: Bash\(curl \*\)[\s\S]*bypassPermissions mode disabled/);
  });

  it('allow_managed_plugins_only: read with where it is, described, and kept by a second file that sets it false', async () => {
    const first = await file('a/m.yaml', 'plugins: [acme]\nallow_managed_plugins_only: true\n');
    const second = await file('b/m.yaml', 'allow_managed_plugins_only: false\n');
    const policy = await load(first, { ...second, named: true });
    expect(policy.managedPluginsOnly?.where).toMatch(/a\/m\.yaml:2:/);
    expect(describePolicy(policy).join('\n')).toMatch(/only the build's and the managed plugins load: configured plugins are not imported, Claude Code plugins not read \(.*a\/m\.yaml:2:/);
    await expect(load(await file('c/m.yaml', 'allow_managed_plugins_only: sure\n'))).rejects.toThrow(/allow_managed_plugins_only: expected true or false/);
  });

  it('switches set to their permissive value restrict nothing', async () => {
    const f = await file('m.yaml', 'allow_managed_plugins_only: false\npermissions:\n  disable_bypass_mode: false\n  allow_managed_rules_only: false\nsandbox:\n  allow_unsandboxed_commands: true\n');
    expect(isEmptyPolicy(await load(f))).toBe(true);
  });
});

describe('fail closed: a managed file MewCode cannot apply stops the run, naming the file, line and key', () => {
  const bad: [string, string, RegExp][] = [
    ['a YAML syntax error', 'permissions:\n  deny: [unclosed\n', /m\.yaml:\d+:\d+: .*cannot parse/],
    ['an unknown top-level key', 'permisions:\n  deny: [Bash]\n', /m\.yaml:\d+:\d+: permisions: unknown key/],
    ['an unknown permissions key', 'permissions:\n  denny: [Bash]\n', /m\.yaml:2:\d+: permissions\.denny: unknown key/],
    ['an allow rule (managed settings only restrict)', 'permissions:\n  allow: [Bash]\n', /permissions\.allow: managed settings only restrict/],
    ['a default mode', 'permissions:\n  default_mode: bypassPermissions\n', /permissions\.default_mode: managed settings only restrict/],
    ['a rule that is not a string', 'permissions:\n  deny: [{ tool: Bash }]\n', /permissions\.deny\[0\]: expected a non-empty string/],
    ['deny as a string, not a list', 'permissions:\n  deny: Bash\n', /permissions\.deny: expected a list of strings/],
    ['disable_bypass_mode misspelt value', 'permissions:\n  disable_bypass_mode: yes please\n', /permissions\.disable_bypass_mode: expected true or "disable" or false/],
    ['the sandbox turned off', 'sandbox: false\n', /sandbox: managed settings can only force the OS sandbox on/],
    ['sandbox.enabled: false', 'sandbox:\n  enabled: false\n', /sandbox\.enabled: managed settings can only force the OS sandbox on/],
    ['the network opened', 'sandbox:\n  network: true\n', /sandbox\.network: managed settings can only keep the network closed/],
    ['a URL as a domain', 'sandbox:\n  allowed_domains: ["https://x.com/"]\n', /sandbox\.allowed_domains\[0\]: "https:\/\/x\.com\/" is not a host name/],
    ['a plugin marked not required', 'plugins:\n  - { use: acme, required: false }\n', /plugins\[0\]\.required: every managed plugin is required/],
    ['a plugin entry with a typo', 'plugins:\n  - { use: acme, requird: true }\n', /plugins\[0\]\.requird: unknown key/],
    ['an MCP server given by command', 'allowedMcpServers:\n  - serverCommand: [npx, x]\n', /allowedMcpServers\[0\]: MewCode matches MCP servers by serverName only/],
    ['a scalar where a mapping belongs', 'permissions: strict\n', /permissions: expected a mapping/],
  ];
  it.each(bad)('%s', async (_label, text, message) => {
    const f = await file('m.yaml', text);
    const loading = load(f);
    await expect(loading).rejects.toBeInstanceOf(ManagedSettingsError);
    await expect(load(f)).rejects.toThrow(message);
    await expect(load(f)).rejects.toThrow(f.file);
  });

  it('a managed file that is a directory is refused, not skipped', async () => {
    await mkdir(path.join(base, 'dir.yaml'));
    await expect(load({ file: path.join(base, 'dir.yaml'), named: false })).rejects.toThrow(/dir\.yaml cannot be read: .*directory/);
  });
});

describe('combining the system file and MEWCODE_MANAGED_SETTINGS: restrictions only ever add up', () => {
  it('rules, plugins and denied servers are the union; switches stay on whichever file set them', async () => {
    const system = await file('system/managed-settings.yaml', 'plugins: [acme]\npermissions:\n  deny: ["Bash(curl *)"]\n  disable_bypass_mode: true\nsandbox:\n  enabled: true\nmcp:\n  denied_servers: [a]\n');
    const extra = await file('extra/m.yaml', 'plugins: [beta]\npermissions:\n  deny: ["Bash(wget *)"]\n  ask: ["Edit"]\n  disable_bypass_mode: false\nsandbox:\n  allow_unsandboxed_commands: true\nmcp:\n  denied_servers: [b]\n');
    // The named file here stands for one only root can change (a fleet's /opt/acme/policy.yaml).
    const policy = await loadManagedPolicy({ env: {}, candidates: [system, { ...extra, named: true }], notRootOwned: () => undefined });
    expect(policy.files).toEqual([system.file, extra.file]);
    expect(policy.plugins.map((p) => [p.use, path.basename(p.baseDir), p.file])).toEqual([
      ['acme', 'system', system.file],
      ['beta', 'extra', extra.file],
    ]);
    expect(policy.permissions.deny.map((r) => r.rule)).toEqual(['Bash(curl *)', 'Bash(wget *)']);
    expect(policy.permissions.ask.map((r) => r.rule)).toEqual(['Edit']);
    expect(policy.permissions.disableBypassMode?.where).toMatch(/system\/managed-settings\.yaml:4/);
    expect(policy.sandbox.forceEnabled).toBeDefined();
    expect(skipSandboxRefusedBy(policy)).toBeDefined();
    expect(policy.mcp.deniedServers.map((r) => r.rule)).toEqual(['a', 'b']);
  });

  it('allow-lists (domains, MCP servers) are the intersection: the second file can narrow, never widen', async () => {
    const system = await file('s.yaml', 'sandbox:\n  allowed_domains: [a.com, b.com]\nmcp:\n  allowed_servers: [x, y]\n');
    const extra = await file('e.yaml', 'sandbox:\n  allowed_domains: [b.com, evil.com]\nmcp:\n  allowed_servers: [y, z]\n');
    const policy = await load(system, extra);
    expect(policy.sandbox.allowedDomains?.value).toEqual(['b.com']);
    expect(policy.mcp.allowedServers?.value).toEqual(['y']);
    // Order does not matter: the result is as narrow either way.
    const reversed = await load(extra, system);
    expect(reversed.sandbox.allowedDomains?.value).toEqual(['b.com']);
    expect(reversed.mcp.allowedServers?.value).toEqual(['y']);
  });

  it('a second file without an allow-list keeps the first one\'s', async () => {
    const system = await file('s.yaml', 'sandbox:\n  allowed_domains: [a.com]\nmcp:\n  allowed_servers: [x]\n');
    const extra = await file('e.yaml', 'permissions:\n  deny: [Bash]\n');
    const policy = await load(system, extra);
    expect(policy.sandbox.allowedDomains?.value).toEqual(['a.com']);
    expect(policy.mcp.allowedServers?.value).toEqual(['x']);
  });

  it('a broken second file fails the whole load (it cannot be skipped to lose its restrictions)', async () => {
    const system = await file('s.yaml', 'permissions:\n  deny: [Bash]\n');
    const extra = await file('e.yaml', 'permissions:\n  deny: [Bash\n');
    await expect(load(system, extra)).rejects.toThrow(/e\.yaml/);
  });
});

describe('a file named by MEWCODE_MANAGED_SETTINGS beside the system file only adds restrictions unless only root can change it', () => {
  const system = () => file('etc/managed-settings.yaml', 'allow_managed_plugins_only: true\nsandbox:\n  enabled: true\n');

  it("a user's file (here under the temporary directory, which anyone can write) that adds a plugin ends the run, naming both files", async () => {
    const sys = await system();
    const mine = { ...(await file('home/policy.yaml', 'plugins: [./evil-spawn.mjs]\n')), named: true };
    const error = await load(sys, mine).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ManagedSettingsError);
    expect((error as Error).message).toContain(mine.file);
    expect((error as Error).message).toContain(sys.file);
    expect((error as Error).message).toMatch(/named by MEWCODE_MANAGED_SETTINGS\) may only add restrictions .* writable by anyone: it has plugins: \.\/evil-spawn\.mjs/);
  });

  it('nor may it open hosts the system file does not pin; narrowing a pinned list is a restriction', async () => {
    const sys = await system();
    const mine = { ...(await file('home/d.yaml', 'sandbox:\n  allowed_domains: [evil.example]\n')), named: true };
    await expect(load(sys, mine)).rejects.toThrow(/sandbox\.allowed_domains .*which the system file does not pin/);
    const pinned = await file('etc2/managed-settings.yaml', 'sandbox:\n  allowed_domains: [a.com, evil.example]\n');
    expect((await load(pinned, mine)).sandbox.allowedDomains?.value).toEqual(['evil.example']);
  });

  it('restrictions from a user\'s file still apply (rules, switches, denied servers)', async () => {
    const sys = await system();
    const mine = { ...(await file('home/r.yaml', 'permissions:\n  deny: ["Bash(curl *)"]\n  allow_managed_rules_only: true\nmcp:\n  denied_servers: [x]\n')), named: true };
    const policy = await load(sys, mine);
    expect(policy.permissions.deny.map((r) => r.rule)).toEqual(['Bash(curl *)']);
    expect(policy.permissions.managedRulesOnly).toBeDefined();
    expect(policy.plugins).toEqual([]);
  });

  it('without a system file the named file is the policy, plugins included (a documented deployment)', async () => {
    const mine = { ...(await file('home/p.yaml', 'plugins: [./org.mjs]\n')), named: true };
    const policy = await load({ file: path.join(base, 'etc/absent.yaml'), named: false }, mine);
    expect(policy.plugins.map((p) => [p.use, p.file])).toEqual([['./org.mjs', mine.file]]);
  });

  it('the ownership judge is the real one: a file of another user, or in a directory others may write, is not root\'s alone', async () => {
    const { rootOwnedProblem } = await import('../../types/root-owned.js');
    const mine = await file('home/o.yaml', 'x: 1\n');
    expect(rootOwnedProblem(mine.file)).toMatchObject({ missing: false, reason: expect.stringMatching(/writable by anyone|not root/) });
    expect(rootOwnedProblem(path.join(base, 'none.yaml'))).toEqual({ missing: true });
    if (process.getuid?.() === 0) expect(rootOwnedProblem('/')).toBeUndefined();
  });
});
