/** The stable system prompt: MewCode's base prompt plus project instructions (U3, K3), then the run's own appended text. */
import { definePlugin } from '../../types/plugin.js';
import { BASE_SYSTEM_PROMPT } from './base-prompt.js';
import { readInstructionFiles, renderInstructions } from './instructions.js';

const NAME = 'system-prompt';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  apply(kernel) {
    // The prompt is built for every session and sub-agent: a skipped file is said once.
    const warned = new Set<string>();
    const warnOnce = (message: string): void => {
      if (warned.has(message)) return;
      warned.add(message);
      kernel.warn(message);
    };
    // The run reads the user's and the project's files unless it names its setting sources (the programmatic API).
    const layers = kernel.cli?.settingSources;
    const sources = { user: layers === undefined || layers.includes('user'), project: layers === undefined || layers.includes('project') };
    const appended = kernel.cli?.appendSystemPrompt?.trim() ?? '';
    kernel.hooks.buildSystemPrompt.tap({ name: NAME, stage: -100 }, (parts, context) => {
      const files = readInstructionFiles(context.homeDir, context.projectRoot, warnOnce, sources);
      for (const file of files) if (file.truncated) kernel.warn(`${file.file} is larger than the instruction limit; only its start is used`);
      // The caller's own text goes last, for the main agent only (a sub-agent has its role's prompt).
      const own = context.agentId === 'main' ? appended : '';
      return [BASE_SYSTEM_PROMPT, ...parts, renderInstructions(files), own];
    });
  },
});
