import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import type { ResolvedConfig } from '../../types/config.js';
import { createWorkspaceTrust, formatConfigIssues, loadConfig, renderConfigPath, zodSection } from '../../config/index.js';
import { type TempDirs, lines, makeTempDirs } from './helpers.js';

let dirs: TempDirs;
beforeEach(async () => {
  dirs = await makeTempDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

const providers = zodSection(
  'providers',
  z.array(
    z.strictObject({
      name: z.string(),
      model: z.string(),
      max_tokens: z.number().optional(),
      api_key: z.string().optional(),
    }),
  ),
);

function validate(config: ResolvedConfig, section = providers): string[] {
  const result = section.parse(config.section(section.key));
  if (result.ok) return [];
  return formatConfigIssues(config, section.key, result.issues);
}

/** A trusted project (the positions of provider entries are what is tested here). */
const loadTrusted = async () =>
  loadConfig({ cwd: dirs.cwd, homeDir: dirs.homeDir, trust: await createWorkspaceTrust({ projectRoot: dirs.cwd, homeDir: dirs.homeDir, flag: true }) });

describe('zodSection', () => {
  it('returns the parsed value when valid', () => {
    const section = zodSection('agent', z.object({ max_turns: z.number().default(20) }));
    expect(section.key).toBe('agent');
    expect(section.parse({})).toEqual({ ok: true, value: { max_turns: 20 } });
  });

  it('maps zod issues to paths relative to the section', () => {
    const result = providers.parse([{ name: 'a', model: 'm', max_tokens: 'many', extra: 1, other: 2 }, { name: 'b' }]);
    expect(result).toEqual({
      ok: false,
      issues: [
        { path: [0, 'max_tokens'], message: 'Expected number, received string' },
        { path: [0, 'extra'], message: 'Unknown key "extra"' },
        { path: [0, 'other'], message: 'Unknown key "other"' },
        { path: [1, 'model'], message: 'Missing required key (expected string)' },
      ],
    });
  });

  it('keeps messages other than the standard type message', () => {
    const section = zodSection('ui', z.object({ theme: z.enum(['dark', 'light']), width: z.number({ error: 'width must be a number' }) }));
    expect(section.parse({ theme: 'blue', width: null })).toEqual({
      ok: false,
      issues: [
        { path: ['theme'], message: 'Invalid option: expected one of "dark"|"light"' },
        { path: ['width'], message: 'width must be a number' },
      ],
    });
  });
});

describe('formatConfigIssues', () => {
  it('names file:line:col of a wrong type, a missing key and an unknown key', async () => {
    const file = await dirs.write(
      dirs.cwd,
      '.mewcode.yaml',
      lines(
        'providers:',
        '  - name: openai',
        '    model: gpt',
        '    max_tokens: "100"',
        '  - name: anthropic',
        '    api_key: k',
        '    temperature: 2',
      ),
    );
    const config = await loadTrusted();
    expect(validate(config)).toEqual([
      `config: ${file}:4:17: providers[0].max_tokens: Expected number, received string`,
      `config: ${file}:5:5: providers[1].model: Missing required key (expected string)`,
      `config: ${file}:7:18: providers[1].temperature: Unknown key "temperature"`,
    ]);
  });

  it('points at the layer that wrote the value after a merge', async () => {
    await dirs.write(dirs.cwd, '.mewcode.yaml', lines('providers:', '  - name: openai', '    model: gpt'));
    const local = await dirs.write(dirs.cwd, '.mewcode/config.local.json', '{"providers": [{"name": "openai", "api_key": 42}]}');
    const config = await loadTrusted();
    expect(validate(config)).toEqual([`config: ${local}:1:46: providers[0].api_key: Expected string, received number`]);
  });

  it('names the section without a location when no file has it', async () => {
    const config = await loadTrusted();
    expect(validate(config)).toEqual(['config: providers: Expected array, received undefined']);
    expect(formatConfigIssues(config, 'mcp_servers', [{ path: ['my server', 'url'], message: 'bad' }])).toEqual([
      'config: mcp_servers["my server"].url: bad',
    ]);
  });
});

describe('renderConfigPath', () => {
  it('renders dots, indexes and quoted odd keys', () => {
    expect(renderConfigPath(['providers', 0, 'api_key'])).toBe('providers[0].api_key');
    expect(renderConfigPath(['mcp_servers', 'my-server', 'headers', 'X-Api-Key'])).toBe('mcp_servers.my-server.headers.X-Api-Key');
    expect(renderConfigPath(['hooks', 'a.b', 2])).toBe('hooks["a.b"][2]');
    expect(renderConfigPath([])).toBe('');
  });
});
