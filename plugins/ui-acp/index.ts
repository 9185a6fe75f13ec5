/**
 * The editor front end: `mewcode acp` speaks the Agent Client Protocol on stdio, one MewCode
 * kernel per editor session. Declared here only: the protocol SDK and the agent load when the
 * command runs, never on a normal start.
 */
import { definePlugin } from '../../types/plugin.js';
import { ACP_USAGE } from './usage.js';

export default definePlugin({
  name: 'ui-acp',
  version: '0.1.0',
  subcommands: [
    {
      name: 'acp',
      usage: ACP_USAGE,
      summary: 'run as an Agent Client Protocol agent on stdin/stdout, for editors (Zed, JetBrains, Neovim CodeCompanion)',
      run: async (context) => (await import('./acp-command.js')).runAcp(context),
    },
  ],
});
