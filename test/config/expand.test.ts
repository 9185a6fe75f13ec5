import { describe, expect, it } from '@jest/globals';
import { createVarExpander } from '../../config/index.js';

function setup(env: NodeJS.ProcessEnv) {
  const warnings: string[] = [];
  const expand = createVarExpander(env, (message) => warnings.push(message));
  return { expand, warnings };
}

describe('createVarExpander', () => {
  it('expands defined ${NAME} references, several per value', () => {
    const { expand, warnings } = setup({ OPENAI_KEY: 'sk-123', HOST: 'example.com', _x1: 'y' });
    expect(expand('${OPENAI_KEY}', 'here')).toBe('sk-123');
    expect(expand('https://${HOST}/v1?k=${OPENAI_KEY}&${_x1}', 'here')).toBe('https://example.com/v1?k=sk-123&y');
    expect(warnings).toEqual([]);
  });

  it('leaves other forms literal', () => {
    const { expand, warnings } = setup({ NAME: 'v' });
    expect(expand('$NAME', 'w')).toBe('$NAME');
    expect(expand('${}', 'w')).toBe('${}');
    expect(expand('${1NAME}', 'w')).toBe('${1NAME}');
    expect(expand('$${NAME}', 'w')).toBe('$v');
    expect(expand('{NAME}', 'w')).toBe('{NAME}');
    expect(warnings).toEqual([]);
  });

  it('${NAME:-default} (Claude Code\'s .mcp.json form): the value when set and not empty, else the default, without a warning', () => {
    const { expand, warnings } = setup({ SET: 'v', EMPTY: '' });
    expect(expand('${SET:-d}', 'w')).toBe('v');
    expect(expand('${UNSET:-d}', 'w')).toBe('d');
    expect(expand('${EMPTY:-d}', 'w')).toBe('d');
    expect(expand('http://h:${PORT:-8080}/x', 'w')).toBe('http://h:8080/x');
    expect(expand('${UNSET:-}', 'w')).toBe('');
    expect(expand('${UNSET:-a b/c:d}', 'w')).toBe('a b/c:d');
    expect(warnings).toEqual([]);
  });

  it('uses an empty value with one warning per undefined variable', () => {
    const { expand, warnings } = setup({ SET: 'ok' });
    const where = 'providers[0].api_key of /x/.mewcode.yaml';
    expect(expand('Bearer ${OPENAI_KEY}', where)).toBe('Bearer ');
    expect(expand('${OPENAI_KEY}-${OPENAI_KEY}', 'mcp_servers.a.env.KEY of /y')).toBe('-');
    expect(expand('${OTHER}${SET}', 'mcp_servers.b.headers.X of /z')).toBe('ok');
    expect(warnings).toEqual([
      'config: ${OPENAI_KEY} is not set (used in providers[0].api_key of /x/.mewcode.yaml); using an empty value',
      'config: ${OTHER} is not set (used in mcp_servers.b.headers.X of /z); using an empty value',
    ]);
  });

  it('treats a variable set to the empty string as set', () => {
    const { expand, warnings } = setup({ EMPTY: '' });
    expect(expand('a${EMPTY}b', 'w')).toBe('ab');
    expect(warnings).toEqual([]);
  });

  it('deduplicates per expander, not globally', () => {
    const first = setup({});
    const second = setup({});
    first.expand('${X}', 'a');
    second.expand('${X}', 'b');
    expect(first.warnings).toHaveLength(1);
    expect(second.warnings).toEqual(['config: ${X} is not set (used in b); using an empty value']);
  });

  it('does not read inherited properties of the env object', () => {
    const { expand } = setup({});
    expect(expand('${toString}', 'w')).toBe('');
  });
});
