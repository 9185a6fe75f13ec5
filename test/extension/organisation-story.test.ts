/**
 * The organisation story, through the BUILT CLI and the scripted model server: a managed settings
 * file (MEWCODE_MANAGED_SETTINGS, as a fleet that ships it elsewhere than /etc would) requires a
 * policy plugin the organisation packed with `npm pack` and installed next to the managed file.
 * With the plugin present its denials hold in every permission mode, bypass included, whatever
 * the user's settings, flags, `disable:` and own plugins say (a user plugin's allow or ask staged
 * before it, or the user's `--allowedTools` before a policy staged after the rules, never ends the
 * permission chain before it is asked); with it missing or broken the run ends with exit 2 before
 * any model request, naming the plugin and the cause.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { removeTempDirs, scenario, singleJsonObject, tempDir, type Scenario } from '../cli/helpers.js';

const run = promisify(execFile);

afterAll(() => removeTempDirs());

const POLICY_SOURCE = `export default {
  name: 'acme-policy',
  version: '1.0.0',
  apply(kernel) {
    kernel.hooks.checkPermission.tapPromise({ name: 'acme-policy', stage: 250 }, async (request) => {
      const target = request.target;
      if (target.kind === 'path' && target.path.endsWith('.secret')) return { decision: 'deny', layer: 'acme-policy', reason: 'acme policy: agents do not write .secret files' };
      if (target.kind === 'command' && /\\bdeploy\\b/.test(target.command)) return { decision: 'deny', layer: 'acme-policy', reason: 'acme policy: no deploys from an agent' };
      return undefined;
    });
  },
};
`;

type Variant = 'good' | 'after-rules' | 'throws-in-apply' | 'future-kernel';

const VARIANTS: Record<Variant, { source: string; kernel?: string }> = {
  good: { source: POLICY_SOURCE },
  // The same policy staged after the permission rules (PermissionStage.Rules + 50).
  'after-rules': { source: POLICY_SOURCE.replace('stage: 250', 'stage: 350') },
  'throws-in-apply': { source: `export default { name: 'acme-policy', apply() { throw new Error('licence server unreachable'); } };\n` },
  'future-kernel': { source: `export default { name: 'acme-policy', kernel: '^99.0.0', apply() {} };\n` },
};

/** Each variant packed once with `npm pack`, as the organisation publishes it. */
const tarballs = new Map<Variant, string>();

beforeAll(async () => {
  const base = tempDir('mewcode-org-packages-');
  await Promise.all(
    (Object.keys(VARIANTS) as Variant[]).map(async (variant) => {
      const dir = path.join(base, variant);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'acme-policy', version: '1.0.0', type: 'module', main: 'index.js', files: ['index.js'] }));
      writeFileSync(path.join(dir, 'index.js'), VARIANTS[variant].source);
      const { stdout } = await run('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: dir, env: { ...process.env, npm_config_loglevel: 'silent', npm_config_update_notifier: 'false' } });
      tarballs.set(variant, path.join(dir, stdout.trim().split('\n').at(-1)!));
    }),
  );
}, 60_000);

/**
 * The organisation's managed directory: managed-settings.yaml, and (unless `plugin` is undefined)
 * the packed plugin installed under its node_modules. Returns the managed file.
 */
async function managedDir(yaml: string, plugin: Variant | undefined): Promise<string> {
  const dir = tempDir('mewcode-org-managed-');
  if (plugin) {
    const target = path.join(dir, 'node_modules', 'acme-policy');
    mkdirSync(target, { recursive: true });
    await run('tar', ['-xzf', tarballs.get(plugin)!, '-C', target, '--strip-components=1']);
  }
  const file = path.join(dir, 'managed-settings.yaml');
  writeFileSync(file, yaml);
  return file;
}

function userFile(s: Scenario, name: string, text: string): void {
  mkdirSync(path.join(s.home, '.mewcode'), { recursive: true });
  writeFileSync(path.join(s.home, '.mewcode', name), text);
}

function auditDecisions(cwd: string): Record<string, unknown>[] {
  const file = path.join(cwd, '.mewcode', 'audit.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>).filter((r) => r.type === 'decision');
}

function toolResult(s: Scenario, request: number): string {
  const content = s.requests[request]!.body.messages.at(-1).content as { type: string; content: unknown }[];
  const result = content.find((block) => block.type === 'tool_result')!;
  return typeof result.content === 'string' ? result.content : JSON.stringify(result.content);
}

const MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions'] as const;

describe('a managed policy plugin that is present', () => {
  test.concurrent.each(MODES)('%s mode: its denial holds although the user allows everything (settings, --allowedTools, disable:)', async (mode) => {
    const turns = [
      { toolCalls: [{ id: 'toolu_w', name: 'write_file', input: { path: 'prod.secret', content: 'key\n' } }] },
      { toolCalls: [{ id: 'toolu_b', name: 'bash', input: { command: 'echo deploy > deployed.txt' } }] },
      { text: 'done' },
    ];
    await scenario(turns, async (s) => {
      const managed = await managedDir('plugins: [acme-policy]\n', 'good');
      // Everything a user can do to loosen: allow rules, dropping the plugin, the flags.
      userFile(s, 'settings.yaml', 'permissions:\n  allow: [Write, Bash, Edit]\n  default_mode: bypassPermissions\n');
      userFile(s, 'config.yaml', 'disable: [acme-policy]\n');
      const r = await s.run(['-p', 'go', '--permission-mode', mode, '--allowedTools', 'Write,Bash', '--output-format', 'json'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.code).toBe(0);
      expect(singleJsonObject(r.stdout).result).toBe('done');
      expect(existsSync(path.join(s.cwd, 'prod.secret'))).toBe(false);
      expect(existsSync(path.join(s.cwd, 'deployed.txt'))).toBe(false);
      expect(r.stderr).toMatch(/acme-policy is required and cannot be disabled/);
      if (mode !== 'plan') {
        // Plan mode refuses writes before any layer; elsewhere the policy is what says no.
        expect(toolResult(s, 1)).toMatch(/Permission denied by acme-policy: acme policy: agents do not write \.secret files/);
        expect(toolResult(s, 2)).toMatch(/Permission denied by acme-policy: acme policy: no deploys from an agent/);
        expect(auditDecisions(s.cwd).map((d) => [d.layer, d.allowed])).toEqual([
          ['acme-policy', false],
          ['acme-policy', false],
        ]);
      }
    });
  });

  const standIns: [string, string][] = [
    ['a user plugin of the same name declaring replaces', `export default { name: 'acme-policy', replaces: ['acme-policy'] };\n`],
    ['a user plugin of another name replacing it', `export default { name: 'my-policy', replaces: ['acme-policy'] };\n`],
  ];
  test.concurrent.each(standIns)('%s does not take its place: the denial holds in bypass mode', async (_label, source) => {
    const turns = [{ toolCalls: [{ id: 'toolu_w', name: 'write_file', input: { path: 'prod.secret', content: 'key\n' } }] }, { text: 'done' }];
    await scenario(turns, async (s) => {
      const managed = await managedDir('plugins: [acme-policy]\n', 'good');
      const own = path.join(s.home, 'plugins', 'stand-in.mjs');
      mkdirSync(path.dirname(own), { recursive: true });
      writeFileSync(own, source);
      userFile(s, 'config.yaml', `plugins: [${JSON.stringify(own)}]\n`);
      const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.code).toBe(0);
      expect(existsSync(path.join(s.cwd, 'prod.secret'))).toBe(false);
      expect(r.stderr).toMatch(/plugin required by managed settings acme-policy/);
      expect(toolResult(s, 1)).toMatch(/Permission denied by acme-policy/);
    });
  });

  const userLayers: [string, Variant, string | undefined, string[]][] = [
    ['a user plugin allowing every call at stage 210, before it', 'good', 'allow', []],
    ['a user plugin asking at stage 210 (the user would approve), before it', 'good', 'ask', []],
    ['--allowedTools Bash, with the policy staged at 350, after the rules', 'after-rules', undefined, ['--allowedTools', 'Bash']],
  ];
  test.concurrent.each(userLayers)('%s does not pre-empt its denial', async (_label, variant, decision, flags) => {
    const turns = [{ toolCalls: [{ id: 'toolu_b', name: 'bash', input: { command: 'echo deploy > deployed.txt' } }] }, { text: 'done' }];
    await scenario(turns, async (s) => {
      const managed = await managedDir('plugins: [acme-policy]\n', variant);
      if (decision) {
        const own = path.join(s.home, 'plugins', 'my-layer.mjs');
        mkdirSync(path.dirname(own), { recursive: true });
        writeFileSync(own, `export default { name: 'my-layer', apply(k) { k.hooks.checkPermission.tapPromise({ name: 'my-layer', stage: 210 }, async () => ({ decision: '${decision}', layer: 'my-layer', reason: 'I trust my agent' })); } };\n`);
        userFile(s, 'config.yaml', `plugins: [${JSON.stringify(own)}]\n`);
      }
      const r = await s.run(['-p', 'go', '--output-format', 'json', ...flags], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.code).toBe(0);
      expect(existsSync(path.join(s.cwd, 'deployed.txt'))).toBe(false);
      expect(toolResult(s, 1)).toMatch(/Permission denied by acme-policy: acme policy: no deploys from an agent/);
      expect(auditDecisions(s.cwd).map((d) => [d.layer, d.allowed])).toEqual([['acme-policy', false]]);
    });
  });

  test.concurrent('control: what the policy does not cover runs in bypass mode (the plugin loaded, and denies only its own cases)', async () => {
    await scenario([{ toolCalls: [{ id: 'toolu_w', name: 'write_file', input: { path: 'notes.txt', content: 'ok\n' } }] }, { text: 'done' }], async (s) => {
      const managed = await managedDir('plugins: [acme-policy]\n', 'good');
      const r = await s.run(['-p', 'go', '--permission-mode', 'bypassPermissions'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
      expect(r.code).toBe(0);
      expect(readFileSync(path.join(s.cwd, 'notes.txt'), 'utf8')).toBe('ok\n');
    });
  });
});

describe('a managed policy plugin that is missing or broken: exit 2 before any model request', () => {
  const cases: [string, Variant | undefined, RegExp][] = [
    ['not installed', undefined, /plugin acme-policy could not be loaded: .*It is required by managed settings \(.*managed-settings\.yaml:1:\d+\)/],
    ['throws in apply', 'throws-in-apply', /plugin acme-policy failed in apply: licence server unreachable.*required by managed settings/],
    ['needs another kernel version', 'future-kernel', /plugin acme-policy .*requires MewCode kernel \^99\.0\.0.*required by managed settings/],
  ];
  test.concurrent.each(cases)('%s: the message names the plugin and the cause; the scripted server got no request', async (_label, variant, message) => {
    await scenario([{ text: 'must not be asked' }], async (s) => {
      const managed = await managedDir('plugins: [acme-policy]\n', variant);
      // A plugin of the same name in the user's own directory does not stand in for the organisation's.
      if (variant === undefined) {
        const own = path.join(s.home, '.mewcode', 'node_modules', 'acme-policy');
        mkdirSync(own, { recursive: true });
        writeFileSync(path.join(own, 'package.json'), JSON.stringify({ name: 'acme-policy', version: '1.0.0', type: 'module', main: 'index.js' }));
        writeFileSync(path.join(own, 'index.js'), `export default { name: 'acme-policy' };\n`);
      }
      for (const mode of ['default', 'bypassPermissions']) {
        const r = await s.run(['-p', 'hi', '--permission-mode', mode, '--output-format', 'json'], { env: { MEWCODE_MANAGED_SETTINGS: managed } });
        expect(r.code).toBe(2);
        // With --output-format json the refusal is the one result on stdout, before any request.
        expect(JSON.parse(r.stdout)).toMatchObject({ type: 'result', is_error: true, num_turns: 0 });
        expect(r.stderr.replace(/\n/g, ' ')).toMatch(message);
      }
      expect(s.requests).toEqual([]);
    });
  });
});
