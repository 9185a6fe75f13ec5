/** lazyTool: the definition is there at boot; the implementation loads once, on first use. */
import { lazyTool } from '../../sdk/lazy-tool.js';
import type { Tool, ToolContext } from '../../types/tools.js';
import { toolContext } from '../support/tool-context.js';

const context: ToolContext = toolContext({ projectRoot: '/p', homeDir: '/h' });

function implementation(): Tool {
  return {
    name: 'find',
    description: 'real',
    inputSchema: { type: 'object' },
    readOnly: true,
    permissionTarget: (input) => ({ kind: 'path', path: String(input.path ?? '.') }),
    execute: async (input) => ({ content: `found in ${String(input.path)}` }),
  };
}

test('nothing is loaded until the tool is used; then it loads once and delegates', async () => {
  let loads = 0;
  const tool = lazyTool({ name: 'find', description: 'Finds.', inputSchema: { type: 'object', properties: {} }, readOnly: true }, async () => {
    loads++;
    return implementation();
  });
  expect([tool.name, tool.description, tool.readOnly, loads]).toEqual(['find', 'Finds.', true, 0]);
  expect(await tool.permissionTarget?.({ path: 'src' })).toEqual({ kind: 'path', path: 'src' });
  expect(await tool.execute({ path: 'src' }, context)).toEqual({ content: 'found in src' });
  await Promise.all([tool.execute({}, context), tool.execute({}, context)]);
  expect(loads).toBe(1);
});

test('a failed import is retried on the next call, and the failure reaches the caller', async () => {
  let attempts = 0;
  const tool = lazyTool({ name: 'find', description: 'd', inputSchema: { type: 'object' }, readOnly: true }, async () => {
    if (++attempts === 1) throw new Error('chunk missing');
    return implementation();
  });
  await expect(tool.execute({ path: 'a' }, context)).rejects.toThrow('chunk missing');
  expect(await tool.execute({ path: 'a' }, context)).toEqual({ content: 'found in a' });
  expect(attempts).toBe(2);
});
