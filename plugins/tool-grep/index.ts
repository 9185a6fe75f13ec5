/**
 * The `grep` tool plugin (T7). The model sees the definition from boot; the implementation
 * (with its regex engine) is imported on the first call, keeping it out of start-up.
 */
import { definePlugin } from '../../types/plugin.js';
import { searchToolBinding } from '../../sdk/search-common/search-tool-binding.js';
import { checkGrepFields, GREP_DESCRIPTION, GREP_INPUT_SCHEMA } from './grep-definition.js';

export default definePlugin({
  name: 'tool-grep',
  version: '0.1.0',
  doctorChecks: [{ name: 'ripgrep', run: async (context) => (await import('./doctor-check.js')).checkRipgrep(context) }],
  dependsOn: ['output-limits'],
  bindings: searchToolBinding({ name: 'grep', description: GREP_DESCRIPTION, inputSchema: GREP_INPUT_SCHEMA, validateInput: checkGrepFields }, async ({ limits, searchPolicy, additionalDirectories }) => {
    const { GrepTool } = await import('./grep-tool.js');
    return new GrepTool(limits, { searchPolicy, additionalDirectories });
  }),
});
