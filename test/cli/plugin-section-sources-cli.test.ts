/**
 * An organisation's policy plugin reads its own section (`config: zodSection('orgpol', …)`, as
 * docs/plugins.md shows) through the BUILT CLI: the managed file that lists it may hold the
 * section and is its only source; a plugin the user's file requires reads the user's file; an
 * untrusted project's `.mewcode.yaml` turns neither off, and the trust notice lists what it left out.
 * The policy denies bash commands naming FORBIDDEN unless `orgpol.enforce` is false.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareCli, removeTempDirs, scenario, tempDir, type Scenario } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

const POLICY = `import { zodSection } from 'mewcode';
const schema = { safeParse(v) { return v && typeof v === 'object' && typeof v.enforce === 'boolean' ? { success: true, data: v } : { success: false, error: { issues: [{ path: ['enforce'], message: 'boolean expected', code: 'custom' }] } }; } };
export default (api) => api.definePlugin({ name: 'org-policy', config: zodSection('orgpol', schema), apply(k) {
  k.hooks.checkPermission.tapPromise({ name: 'org-policy', stage: api.PermissionStage.Sandbox + 50 }, async (r) => {
    const enforce = k.config('orgpol')?.enforce ?? true;
    if (enforce && JSON.stringify(r.target).includes('FORBIDDEN')) return { decision: 'deny', layer: 'org-policy', reason: 'org forbids' };
    return undefined;
  });
}});
`;

function writeAll(base: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(base, name)), { recursive: true });
    writeFileSync(path.join(base, name), text);
  }
}

/** The policy as an npm package in `dir`'s node_modules. */
const policyPackage = (prefix = ''): Record<string, string> => ({
  [`${prefix}node_modules/org-policy/package.json`]: JSON.stringify({ name: 'org-policy', type: 'module', main: 'index.js' }),
  [`${prefix}node_modules/org-policy/index.js`]: POLICY,
});

interface Setup {
  managed?: string;
  user?: string;
  project?: string;
  trusted: boolean;
}

/** Runs one turn that asks bash to create FORBIDDEN-marker; whether the file exists says if the policy let it. */
async function attempt(s: Scenario, setup: Setup) {
  const env: Record<string, string> = {};
  if (setup.managed !== undefined) {
    const dir = tempDir('mewcode-managed-');
    writeAll(dir, { 'managed-settings.yaml': setup.managed, ...policyPackage() });
    env.MEWCODE_MANAGED_SETTINGS = path.join(dir, 'managed-settings.yaml');
  }
  if (setup.user !== undefined) writeAll(s.home, { '.mewcode/config.yaml': setup.user, ...policyPackage('.mewcode/') });
  if (setup.project !== undefined) writeAll(s.cwd, { '.mewcode.yaml': setup.project });
  const marker = path.join(s.cwd, 'FORBIDDEN-marker');
  const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions', '--dangerously-skip-sandbox', ...(setup.trusted ? ['--trust-project'] : [])], { env });
  return { ...r, ran: existsSync(marker), managed: env.MEWCODE_MANAGED_SETTINGS };
}

const TURNS = [{ toolCalls: [{ id: 'call_1', name: 'bash', input: { command: 'touch FORBIDDEN-marker' } }] }, { text: 'done' }];
const USER_REQUIRED = 'plugins:\n  - use: org-policy\n    required: true\norgpol:\n  enforce: true\n';

test.concurrent('the managed file holds the section of the plugin it lists; a project and the user file do not turn it off', async () => {
  await scenario(TURNS, async (s) => {
    const r = await attempt(s, { trusted: true, managed: 'plugins: [org-policy]\norgpol:\n  enforce: true\n', user: 'orgpol:\n  enforce: false\n', project: 'orgpol:\n  enforce: false\n' });
    expect(r.code).toBe(0);
    expect(r.ran).toBe(false);
    expect(r.stderr).toContain(`${path.join(s.cwd, '.mewcode.yaml')}:1:1`);
    expect(r.stderr).toContain(`${path.join(s.home, '.mewcode', 'config.yaml')}:1:1`);
    expect(r.stderr).toMatch(/orgpol: ignored: plugin org-policy is managed by/);
  });
});

test.concurrent('the managed section is what the plugin reads (enforce: false there lets the command run: the control)', async () => {
  await scenario(TURNS, async (s) => {
    const r = await attempt(s, { trusted: true, managed: 'plugins: [org-policy]\norgpol:\n  enforce: false\n' });
    expect(r.code).toBe(0);
    expect(r.ran).toBe(true);
  });
});

test.concurrent('a managed key no listed plugin reads still stops the run (exit 2), naming file, line and key', async () => {
  await scenario([{ text: 'never' }], async (s) => {
    const r = await attempt(s, { trusted: true, managed: 'plugins: [org-policy]\norgpl:\n  enforce: true\n' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${r.managed}:2:1: orgpl: unknown key`);
  });
});

test.concurrent("an untrusted project's section does not override the user's required policy, and the trust notice lists it", async () => {
  await scenario(TURNS, async (s) => {
    const r = await attempt(s, { trusted: false, user: USER_REQUIRED, project: 'orgpol:\n  enforce: false\n' });
    expect(r.code).toBe(0);
    expect(r.ran).toBe(false);
    expect(r.stderr).toMatch(/trust: these settings of .* were skipped: this project is not trusted/);
    expect(r.stderr).toContain('.mewcode.yaml: orgpol');
  });
});

test.concurrent("a trusted project's section does not change the user's required policy either", async () => {
  await scenario(TURNS, async (s) => {
    const r = await attempt(s, { trusted: true, user: USER_REQUIRED, project: 'orgpol:\n  enforce: false\n' });
    expect(r.code).toBe(0);
    expect(r.ran).toBe(false);
    expect(r.stderr).toContain(`${path.join(s.cwd, '.mewcode.yaml')}:1:1: orgpol: ignored: plugin org-policy is required by your configuration`);
  });
});
