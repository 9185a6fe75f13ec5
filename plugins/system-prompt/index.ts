/** The stable system prompt: MewCode's base prompt plus project instructions (SPEC U3, K3). */
import { definePlugin } from '../../types/plugin.js';
import { BASE_SYSTEM_PROMPT } from './base-prompt.js';
import { readInstructionFiles, renderInstructions } from './instructions.js';

const NAME = 'system-prompt';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  apply(kernel) {
    kernel.hooks.buildSystemPrompt.tap({ name: NAME, stage: -100 }, (parts, context) => {
      const files = readInstructionFiles(context.homeDir, context.projectRoot, (message) => kernel.warn(message));
      for (const file of files) if (file.truncated) kernel.warn(`${file.file} is larger than the instruction limit; only its start is used`);
      return [BASE_SYSTEM_PROMPT, ...parts, renderInstructions(files)];
    });
  },
});
