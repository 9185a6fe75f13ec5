/**
 * The `glob` tool plugin (T6). The model sees the definition from boot; the implementation
 * (with its glob matcher) is imported on the first call, keeping it out of start-up.
 */
import { definePlugin } from '../../types/plugin.js';
import { searchToolBinding } from '../../sdk/search-common/search-tool-binding.js';
import { GLOB_DESCRIPTION, GLOB_INPUT_SCHEMA } from './glob-definition.js';

export default definePlugin({
  name: 'tool-glob',
  version: '0.1.0',
  dependsOn: ['output-limits'],
  bindings: searchToolBinding({ name: 'glob', description: GLOB_DESCRIPTION, inputSchema: GLOB_INPUT_SCHEMA }, async ({ limits, searchPolicy, additionalDirectories }) => {
    const { GlobTool } = await import('./glob-tool.js');
    return new GlobTool(limits, { searchPolicy, additionalDirectories });
  }),
});
