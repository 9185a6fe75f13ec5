// Claude Code command lines through the built CLI: `--model sonnet` and the variadic flags send
// what Claude Code would, and never a flag's value as the prompt.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastUserTexts, prepareCli, removeTempDirs, scenario } from './helpers.js';
import { CLAUDE_MODEL_ALIASES } from '../../types/model-aliases.js';

beforeAll(() => prepareCli(), 40_000);
afterAll(() => removeTempDirs());

test.concurrent('-p --model sonnet asks for the Sonnet model id, not "sonnet"', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const r = await s.run(['-p', 'hi', '--model', 'sonnet']);
    expect(r.code).toBe(0);
    expect(s.requests[0]!.body.model).toBe(CLAUDE_MODEL_ALIASES.sonnet);
  });
});

test.concurrent('on the OpenAI protocol --model haiku is a configuration error before any request', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const r = await s.run(['-p', 'hi', '--model', 'haiku']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/"haiku" is Claude Code's alias.*ANTHROPIC_DEFAULT_HAIKU_MODEL/s);
    expect(s.requests).toHaveLength(0);
  }, 'openai');
});

test.concurrent('--mcp-config with a file and a JSON text: the prompt sent is the prompt alone', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    writeFileSync(join(s.cwd, 'extra.json'), JSON.stringify({ mcpServers: {} }));
    const inline = '{"mcpServers":{"inl":{"type":"http","url":"http://127.0.0.1:1/mcp","headers":{"Authorization":"Bearer SECRET-TOKEN"}}}}';
    const r = await s.run(['-p', 'go', '--mcp-config', 'extra.json', inline]);
    expect(r.code).toBe(0);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).not.toMatch(/SECRET|mcpServers/);
    expect(lastUserTexts(s.requests[0]!.body).join('\n')).toMatch(/^go$/m);
  });
});

test.concurrent('a word after a single-value flag once the prompt was given: exit 2, nothing sent', async () => {
  await scenario([{ text: 'ok' }], async (s) => {
    const r = await s.run(['-p', 'go', '--max-turns', '3', 'extra']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"extra" is a second prompt after --max-turns/);
    expect(s.requests).toHaveLength(0);
  });
});
