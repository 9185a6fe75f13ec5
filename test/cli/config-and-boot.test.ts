// Broken configuration is reported with file and line and does not stop a run (K2);
// --debug-boot reports every default plugin's load time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPlugins } from '../../plugins/default-set.js';
import { prepareCli, removeTempDirs, scenario, singleJsonObject } from './helpers.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('configuration problems are warnings', () => {
  test.concurrent('a YAML syntax error names the file and line; the run still succeeds on the environment variables', async () => {
    await scenario([{ text: 'Still works.' }], async (s) => {
      const file = join(s.cwd, '.mewcode.yaml');
      // line 3 is broken (a broken file that names `plugins:` stops the run instead: test/kernel/plugins-section.test.ts)
      writeFileSync(file, ['# project settings', 'disable: []', 'providers: : [oops', 'max_turns: 5', ''].join('\n'));
      const r = await s.run(['-p', 'hi', '--output-format', 'json']);
      expect(r.code).toBe(0);
      expect(singleJsonObject(r.stdout)).toMatchObject({ is_error: false, result: 'Still works.' });
      expect(r.stderr).toMatch(new RegExp(`${escapeRegExp(file)}:3\\b`));
      expect(r.stderr).toMatch(/warning/i);
      expect(r.stdout).not.toContain('.mewcode.yaml');
      expect(s.requests).toHaveLength(1);
      expect(s.requests[0]!.body.model).toBe('x');
    });
  });

  test.concurrent('a bad value type names file:line and providers[0].max_tokens; the bad entry is skipped, the valid one used', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const file = join(s.cwd, '.mewcode.yaml');
      writeFileSync(file, `providers: [{name: a, protocol: anthropic, max_tokens: "big"}, {name: b, protocol: anthropic, model: y, api_key: entry-b-key, base_url: "${s.server.url}"}]\n`);
      const r = await s.run(['-p', 'hi', '--trust-project']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('ok\n');
      const line = r.stderr.split('\n').find((l) => l.includes('providers[0].max_tokens'));
      expect(line).toBeDefined();
      expect(line).toMatch(new RegExp(`${escapeRegExp(file)}:1\\b.*\\(provider entry skipped\\)`));
      // Entry b served the request (its own key), with MEWCODE_MODEL=x overriding its model as documented.
      expect(s.requests.map((q) => [q.body.model, JSON.stringify(q.headers).includes('entry-b-key')])).toEqual([['x', true]]);
    });
  });

  test.concurrent('when every configured provider is invalid, the environment is not used in their place: exit 2, no request', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const file = join(s.cwd, '.mewcode.yaml');
      writeFileSync(file, 'providers: [{name: a, protocol: anthropic, max_tokens: "big"}]\n');
      const r = await s.run(['-p', 'hi', '--trust-project']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('No usable provider: every entry of the `providers:` section is invalid');
      expect(s.requests).toHaveLength(0);
    });
  });

  test.concurrent('a bad value in a block-style list names its own line', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const file = join(s.cwd, '.mewcode.yaml');
      writeFileSync(file, ['providers:', '  - name: a', '    protocol: anthropic', '    max_tokens: big', ''].join('\n'));
      const r = await s.run(['-p', 'hi', '--trust-project']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`${escapeRegExp(file)}:4\\b.*providers\\[0\\]\\.max_tokens`));
    });
  });

  test.concurrent('a broken user config (~/.mewcode/config.yaml) is reported too and does not stop the run', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      mkdirSync(join(s.home, '.mewcode'));
      const file = join(s.home, '.mewcode', 'config.yaml');
      writeFileSync(file, 'providers:\n\t- name: tabbed\n');
      const r = await s.run(['-p', 'hi']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('ok\n');
      expect(r.stderr).toMatch(new RegExp(`${escapeRegExp(file)}:2\\b`));
    });
  });
});

describe('--debug-boot', () => {
  test.concurrent("prints each default plugin's name with its timing on stderr; stdout keeps only the answer", async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const r = await s.run(['-p', 'hi', '--debug-boot']);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('ok\n');
      expect(defaultPlugins.length).toBeGreaterThan(0);
      for (const plugin of defaultPlugins) {
        expect(r.stderr).toMatch(new RegExp(`^.*\\b${escapeRegExp(plugin.name)}\\b.*\\d+(\\.\\d+)?\\s*ms.*$`, 'm'));
      }
    });
  });

  test.concurrent('without --debug-boot no timings are printed', async () => {
    await scenario([{ text: 'ok' }], async (s) => {
      const r = await s.run(['-p', 'hi']);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/\bms\b/);
      for (const plugin of defaultPlugins) expect(r.stderr).not.toContain(plugin.name);
    });
  });
});
