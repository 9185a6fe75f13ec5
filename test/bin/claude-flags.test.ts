/**
 * Claude Code's flags MewCode does not have are refused with the nearest MewCode way (never a bare
 * "Unknown option"); `--strict-mcp-config` is taken (only --mcp-config's servers are used).
 */
import { parseCommandLine } from '../../bin/cli-args.js';
import { loadServerSources } from '../../plugins/mcp/server-sources.js';

test.each([
  ['--system-prompt', 'x', /--append-system-prompt/],
  ['--input-format', 'stream-json', /prompt.*argument or on standard input/],
  ['--session-id', '123e4567-e89b-12d3-a456-426614174000', /--resume/],
  ['--agents', '{}', /\.claude\/agents/],
  ['--setting-sources', 'user', /settings files/],
  ['--fallback-model', 'm', /--model/],
  ['--settings', 'f.json', /~\/\.mewcode\/settings\.yaml/],
  ['--permission-prompt-tool', 'mcp__x__y', /permission/],
])('%s is refused naming the nearest MewCode way', (flag, value, hint) => {
  const parsed = parseCommandLine(['-p', 'hi', flag, value], '/');
  expect(parsed.kind).toBe('error');
  const message = (parsed as { message: string }).message;
  expect(message).toContain(flag);
  expect(message).toContain('Claude Code');
  expect(message).toMatch(hint);
  expect(message).not.toMatch(/^Unknown option/);
});

test('--strict-mcp-config is taken with --mcp-config', () => {
  const parsed = parseCommandLine(['-p', 'hi', '--strict-mcp-config', '--mcp-config', '{"mcpServers": {"a": {"command": "x"}}}'], '/');
  expect(parsed).toMatchObject({ kind: 'run', options: { strictMcpConfig: true, mcpServers: { a: { command: 'x' } } } });
});

test('strict: only the run\'s servers are used, the configured ones are left out', async () => {
  const config = { section: (name: string) => (name === 'mcp_servers' ? { mine: { type: 'stdio', command: 'y' } } : undefined), locate: () => 'config', layers: [] } as any;
  const load = (strict: boolean) => loadServerSources({ config, trust: undefined, projectRoot: '/nonexistent', env: {}, warn: () => undefined, strict, added: { servers: { a: { command: 'x' } } } });
  expect((await load(false)).servers.map((s) => s.name).sort()).toEqual(['a', 'mine']);
  expect((await load(true)).servers.map((s) => s.name)).toEqual(['a']);
});
