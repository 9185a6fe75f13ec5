/**
 * A tool runs with the permission target the layers judged (ToolContext.permissionTarget): the
 * frozen copy from the permission request, so a file tool can check that its path still leads
 * where it was judged to (sdk/file-tool-support/judged-path.ts).
 */
import type { PermissionTarget, Tool } from '../../types/tools.js';
import { say, useTools } from '../support/memory-provider.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { toolsPlugin } from '../support/test-tools.js';

test('the judged target reaches the tool, frozen, through the model loop', async () => {
  const seen: (PermissionTarget | undefined)[] = [];
  const tool: Tool = {
    name: 'place',
    description: 'records its judged target',
    inputSchema: { type: 'object', properties: { file_path: { type: 'string' } } },
    readOnly: true,
    async permissionTarget(input) {
      return { kind: 'path', path: String(input.file_path), real: `/real/${String(input.file_path)}` };
    },
    async execute(_input, context) {
      seen.push(context.permissionTarget);
      return { content: 'ok' };
    },
  };
  const { kernel } = await bootKernel([useTools([{ id: 'c1', name: 'place', input: '{"file_path":"d/config"}' }]), say('done')], [toolsPlugin([tool], 'place-tool')]);
  expect(doneEvent(await runPrompt(kernel, 'go')).reason).toBe('completed');
  expect(seen).toEqual([{ kind: 'path', path: 'd/config', real: '/real/d/config' }]);
  expect(Object.isFrozen(seen[0])).toBe(true);
});
