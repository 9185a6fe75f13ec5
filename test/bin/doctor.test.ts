/**
 * `mewcode doctor` in process (bin/doctor.ts with the default plugins), in a temp project with a
 * temp home directory: one `ok|warn|fail  check  message` line per finding, exit 1 on any fail,
 * keys never printed, nothing written.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIN_NODE_VERSION, checkNode, compareVersions } from '../../bin/doctor-checks.js';
import { noSandboxPluginLines } from '../../bin/doctor-kernel.js';
import { sandboxLines } from '../../plugins/sandbox-os/doctor-check.js';
import { formatLine } from '../../bin/doctor-report.js';
import { runDoctor } from '../../bin/doctor.js';
import { writeRecords } from '../plugins/permission-audit/helpers.js';
import { anchorFileOf } from '../../plugins/permission-audit/chain.js';

let base: string;
let cwd: string;
let home: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-doctor-')));
  cwd = path.join(base, 'project');
  home = path.join(base, 'home');
  mkdirSync(cwd);
  mkdirSync(home);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const SECRET = 'sk-ant-do-not-print-me';
const goodEnv = { PATH: process.env.PATH, ANTHROPIC_API_KEY: SECRET, MEWCODE_MODEL: 'claude-test' };

async function doctor(env: NodeJS.ProcessEnv, flags: { trustProject?: boolean; provider?: string } = {}) {
  let text = '';
  const code = await runDoctor({ cwd, trustProject: flags.trustProject ?? false, ...(flags.provider ? { provider: flags.provider } : {}) }, { env, homeDir: home, out: (t) => void (text += t) });
  const lines = text.split('\n').slice(1, -2); // without the title and the count
  return { code, text, lines, line: (check: string) => lines.filter((l) => l.slice(6, 15).trim() === check) };
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: false }) as string[];
}

test('a good setup: every check ok (the machine-dependent ones not fail), exit 0, the key never printed', async () => {
  const r = await doctor(goodEnv);
  expect(r.text.split('\n')[0]).toBe(`mewcode doctor 0.2.0: ${cwd}`);
  expect(r.lines.every((l) => /^(ok|warn|fail) {1,3} \S+ +\S/.test(l))).toBe(true);
  expect(r.line('node')).toEqual([expect.stringMatching(/^ok {4}node {6}Node\.js \d+\.\d+\.\d+ \(needs >= 20\.11\)$/)]);
  expect(r.line('config')).toEqual([expect.stringMatching(/^ok {4}config {4}no configuration files/)]);
  expect(r.line('trust')).toEqual(['ok    trust     project not trusted; none of its settings needs trust']);
  expect(r.line('provider')).toEqual(['ok    provider  anthropic (anthropic), model claude-test; API key from ANTHROPIC_API_KEY (set)']);
  expect(r.line('ripgrep')).toHaveLength(1);
  expect(r.line('sandbox')).toEqual([expect.stringMatching(/^(ok|warn) /)]);
  expect(r.line('audit')).toEqual(['ok    audit     no audit log in this project yet (.mewcode/audit.jsonl)']);
  const plugins = r.line('plugins');
  expect(plugins).toEqual([expect.stringMatching(/^ok {4}plugins {3}31 loaded: provider-anthropic, provider-openai, .*permission-audit, ui-headless, ui-tui, ui-acp, commands, session, compaction, claude-plugins, skills, mcp, hooks, subagents, custom-commands, claude-plugin-sources$/)]);
  expect(r.text).toMatch(/^\d+ ok, \d+ warn, 0 fail\n$/m);
  expect(r.code).toBe(0);
  expect(r.text).not.toContain(SECRET);
  expect(listFiles(cwd)).toEqual([]); // no audit record of the trust decision, nothing else
  expect(listFiles(home)).toEqual([]);
});

test('a bad setup: a broken config file fails naming it; an untrusted project\'s plugins: is reported; no key fails the provider', async () => {
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'config.yaml'), 'disable: [\n');
  writeFileSync(path.join(cwd, '.mewcode.yaml'), 'plugins: [./acme-plugin.js]\n');
  const r = await doctor({ PATH: process.env.PATH });
  expect(r.code).toBe(1);
  expect(r.line('config')).toEqual([
    expect.stringMatching(/^fail {2}config {4}user file ~\/\.mewcode\/config\.yaml:2:1 cannot be used: .+ — fix the file; until then MewCode runs without any of its settings$/),
    'ok    config    project file .mewcode.yaml',
  ]);
  expect(r.line('trust')).toEqual([
    'warn  trust     1 setting that run code or send data are skipped (this project is not trusted): .mewcode.yaml: plugins — ' +
      'review them; pass --trust-project (or set MEWCODE_TRUST_PROJECT=1) to apply them for a run, or trust the project when an interactive session asks',
  ]);
  expect(r.line('provider')).toEqual([expect.stringMatching(/^fail {2}provider  No provider configured: set ANTHROPIC_API_KEY or OPENAI_API_KEY .* — a run stops with exit 2 until this is fixed/)]);
  // The plugins are still checked, with a stand-in provider.
  expect(r.line('plugins')[0]).toMatch(/^ok {4}plugins {3}31 loaded \(checked with a stand-in provider, see provider\): provider-anthropic, /);
  expect(r.text).toMatch(/^\d+ ok, \d+ warn, 2 fail\n$/m);
});

test('trusted with --trust-project: the project\'s plugins: is applied, and a plugin that cannot load is a warning naming it', async () => {
  writeFileSync(path.join(cwd, '.mewcode.yaml'), 'plugins: [./acme-plugin.js]\n');
  const r = await doctor(goodEnv, { trustProject: true });
  expect(r.line('trust')).toEqual(['ok    trust     project trusted (--trust-project): its plugins, providers, hooks and other code-running settings apply']);
  expect(r.line('plugins')).toEqual([expect.stringMatching(/^ok {4}plugins {3}31 loaded: /), expect.stringMatching(/^warn {2}plugins {3}plugin \.\/acme-plugin\.js could not be loaded: .*acme-plugin\.js.* — see the plugin or setting named$/)]);
  expect(r.code).toBe(0);
});

test('a configured provider: the name, model and endpoint origin only; a literal api_key and URL credentials are never printed', async () => {
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'config.yaml'),
    'providers:\n  - {name: work, protocol: openai, model: gpt-x, api_key: literal-secret-42, base_url: "https://bob:pw-secret@proxy.example.com/v1?token=tok-secret"}\n  - {name: spare, protocol: anthropic, model: m, api_key: spare-secret}\n',
  );
  const r = await doctor({ PATH: process.env.PATH });
  expect(r.line('provider')).toEqual([
    "ok    provider  work (openai), model gpt-x, base URL https://proxy.example.com; API key from the providers entry's api_key (OPENAI_API_KEY is not set); also configured: spare",
  ]);
  for (const secret of ['literal-secret-42', 'spare-secret', 'pw-secret', 'tok-secret', 'bob']) expect(r.text).not.toContain(secret);
  expect(r.code).toBe(0);
});

test('an unset ${VAR} in the provider entry is a provider warning', async () => {
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'config.yaml'), 'providers: [{name: work, protocol: openai, model: gpt-x, api_key: "${WORK_KEY}", base_url: "http://localhost:8080/v1"}]\n');
  const r = await doctor({ PATH: process.env.PATH });
  expect(r.line('provider')).toEqual([
    'ok    provider  work (openai), model gpt-x, base URL http://localhost:8080; no API key (not needed for http://localhost:8080)',
    expect.stringMatching(/^warn {2}provider  config: \$\{WORK_KEY\} is not set \(used in providers\.work\.api_key\)/),
  ]);
});

test('the audit log: intact is ok with its record count; edited is a fail naming the line', async () => {
  const file = path.join(cwd, '.mewcode', 'audit.jsonl');
  await writeRecords(file, 3);
  // Not written by MewCode on this machine (no anchor in the home): not vouched for.
  expect((await doctor(goodEnv)).line('audit')).toEqual([expect.stringMatching(/^fail {2}audit {5}audit log BROKEN: .* line 1: not anchored on this machine/)]);
  rmSync(path.dirname(file), { recursive: true });
  await writeRecords(file, 3, 1, { anchor: anchorFileOf(home, file) });
  expect((await doctor(goodEnv)).line('audit')).toEqual(['ok    audit     audit log intact: 3 records in 1 file']);
  const lines = readFileSync(file, 'utf8').split('\n');
  writeFileSync(file, [lines[0], lines[1]!.replace('record 2', 'record X'), ...lines.slice(2)].join('\n'));
  const r = await doctor(goodEnv);
  expect(r.line('audit')).toEqual([expect.stringMatching(/^fail {2}audit {5}audit log BROKEN: \.mewcode\/audit\.jsonl line 3: .* — it was changed outside MewCode/)]);
  expect(r.code).toBe(1);
});

test('Node.js: the minimum is package.json engines; an older version fails', () => {
  const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } }).engines.node;
  expect(engines).toBe(`>=${MIN_NODE_VERSION.replace(/\.0$/, '')}`);
  expect(checkNode('18.19.1')).toEqual([{ status: 'fail', check: 'node', message: 'Node.js 18.19.1 is too old (MewCode needs >= 20.11)', hint: 'install Node.js 20.11 or later' }]);
  expect(checkNode('20.11.0')[0]!.status).toBe('ok');
  expect(checkNode('22.1.0')[0]!.status).toBe('ok');
  expect(compareVersions('20.10.9', '20.11.0')).toBe(-1);
});

test('the sandbox line: unavailable or turned off warns that bash would run unsandboxed; a build without the plugin says so', () => {
  const style = { cwd: '/p', homeDir: '/h' };
  const [missing] = sandboxLines({ active: false, mechanism: 'none', reason: 'bubblewrap (bwrap) is not installed' });
  expect(formatLine(missing!, style)).toMatch(/^warn {2}sandbox {3}no OS sandbox: bubblewrap \(bwrap\) is not installed; bash would run unsandboxed \(it asks for approval in default mode/);
  const [off] = sandboxLines({ active: false, mechanism: 'none', disabledByUser: true, reason: 'turned off by the user (sandbox: false at /h/.mewcode/settings.yaml:1:1)' });
  expect(formatLine(off!, style)).toMatch(/^warn {2}sandbox {3}OS sandbox turned off by the user \(sandbox: false at ~\/\.mewcode\/settings\.yaml:1:1\): bash would run unsandboxed .* — remove sandbox: false/);
  expect(noSandboxPluginLines()[0]).toMatchObject({ status: 'warn', message: expect.stringContaining('this build has no OS sandbox plugin: bash would run unsandboxed') });
  expect(sandboxLines({ active: true, mechanism: 'bubblewrap', network: false }, '/usr/bin/bwrap', {})[0]).toEqual({ status: 'ok', check: 'sandbox', message: 'bubblewrap (/usr/bin/bwrap): bash commands run in the OS sandbox, network off' });
});

test('the sandbox line: with allowed_domains behind a proxy, it says the sandbox\'s proxy chains to that proxy (never its password)', () => {
  const byDomain = { active: true, mechanism: 'bubblewrap', network: false, allowedDomains: ['registry.npmjs.org'] } as const;
  const env = { HTTPS_PROXY: 'alice:TOPSECRET@proxy.corp:3128', NO_PROXY: '.corp.test' };
  expect(sandboxLines(byDomain, '/usr/bin/bwrap', env)[0]!.message).toBe(
    "bubblewrap (/usr/bin/bwrap): bash commands run in the OS sandbox, network only to registry.npmjs.org (through MewCode's proxy); the sandbox's proxy chains to the upstream proxy (https: through http://proxy.corp:3128 (HTTPS_PROXY, with credentials), http: directly, except hosts in NO_PROXY=.corp.test)",
  );
  // No proxy set, or the network is off anyway: nothing to say.
  expect(sandboxLines(byDomain, '/usr/bin/bwrap', {})[0]!.message).toBe("bubblewrap (/usr/bin/bwrap): bash commands run in the OS sandbox, network only to registry.npmjs.org (through MewCode's proxy)");
  expect(sandboxLines({ active: true, mechanism: 'bubblewrap', network: false }, undefined, env)[0]!.message).not.toContain('upstream');
});

test('a message on several lines is printed on one', () => {
  expect(formatLine({ status: 'warn', check: 'plugins', message: 'first\n  second\r\nthird\u001b[31m', hint: 'do x' }, { cwd: '/p', homeDir: '/h' })).toBe('warn  plugins   first second third [31m — do x');
});

test('settings files: each one found is listed (every spelling), and two spellings of one scope warn once, naming both', async () => {
  mkdirSync(path.join(home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(home, '.mewcode', 'settings.json'), '{"sandbox": false, "permissions":{"deny":["Read(./.env)"]}}');
  mkdirSync(path.join(cwd, '.mewcode'), { recursive: true });
  writeFileSync(path.join(cwd, '.mewcode', 'settings.local.yaml'), 'permissions:\n  deny: ["Bash(curl *)"]\n');
  writeFileSync(path.join(cwd, '.mewcode', 'settings.local.json'), '{"permissions":{"deny":["Bash(wget *)"]}}');
  const r = await doctor(goodEnv);
  expect(r.line('settings')).toEqual([
    'ok    settings  user file ~/.mewcode/settings.json',
    'ok    settings  local file .mewcode/settings.local.yaml',
    'ok    settings  local file .mewcode/settings.local.json',
    expect.stringMatching(/^warn {2}settings {2}\.mewcode\/settings\.local\.yaml and \.mewcode\/settings\.local\.json are the same local settings file spelled 2 ways; .* — keep one file per scope$/),
  ]);
  // The permission rules' own warning at boot is the same text: not repeated under plugins.
  expect(r.text.match(/spelled 2 ways/g)).toHaveLength(1);
});

test("a required plugin whose start() fails (here the organisation's, as a run would find it): a plugins fail line naming it, exit 1; one that starts is ok", async () => {
  const managedDir = path.join(base, 'managed');
  mkdirSync(managedDir);
  writeFileSync(path.join(managedDir, 'managed-settings.yaml'), 'plugins: [./pol.mjs]\n');
  const env = { ...goodEnv, MEWCODE_MANAGED_SETTINGS: path.join(managedDir, 'managed-settings.yaml') };

  writeFileSync(path.join(managedDir, 'pol.mjs'), "export default { name: 'pol', start() { return Promise.reject(new Error('policy server unreachable')); }, apply() {} };\n");
  const failing = await doctor(env);
  expect(failing.code).toBe(1);
  expect(failing.line('plugins')).toContainEqual(expect.stringMatching(/^fail +plugins +MewCode does not start: plugin pol failed in start: policy server unreachable.*required by managed settings/));

  // Another file: this process has imported pol.mjs already.
  writeFileSync(path.join(managedDir, 'managed-settings.yaml'), 'plugins: [./pol-ok.mjs]\n');
  writeFileSync(path.join(managedDir, 'pol-ok.mjs'), "export default { name: 'pol', async start() {}, apply() {} };\n");
  const starting = await doctor(env);
  expect(starting.line('plugins').filter((l) => l.startsWith('fail'))).toEqual([]);
});
