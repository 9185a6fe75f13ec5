/** The stable system prompt: MewCode's base prompt plus project instructions (U3, K3). */
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
    kernel.hooks.buildSystemPrompt.tap({ name: NAME, stage: -100 }, (parts, context) => {
      const files = readInstructionFiles(context.homeDir, context.projectRoot, warnOnce);
      for (const file of files) if (file.truncated) kernel.warn(`${file.file} is larger than the instruction limit; only its start is used`);
      return [BASE_SYSTEM_PROMPT, ...parts, renderInstructions(files)];
    });
  },
});
