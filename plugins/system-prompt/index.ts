/** The stable system prompt: MewCode's base prompt plus project instructions (U3, K3), then the run's own appended text. */
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { BASE_SYSTEM_PROMPT } from './base-prompt.js';
import { readInstructionFiles, renderInstructions, type InstructionFile } from './instructions.js';

const NAME = 'system-prompt';
/** Sessions whose instruction files are kept. */
const MAX_SESSIONS = 16;

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
    // Read once per session: the prompt is built again when the model or the tool list changes,
    // and a file edited meanwhile must not change the cached prefix. A few sessions are kept (a
    // host running many queries in one process does not grow this without bound).
    const sessions = new Map<string, InstructionFile[]>();
    const filesOf = (sessionId: string, homeDir: string, projectRoot: string): InstructionFile[] => {
      const key = `${sessionId}\u0000${homeDir}\u0000${projectRoot}`;
      const known = sessions.get(key);
      if (known !== undefined) return known;
      // What read_file would not read unasked (a Read(.env) deny or ask rule) is never imported.
      const hidden = kernel.container.isBound(TOKENS.SearchPolicy) ? kernel.container.get(TOKENS.SearchPolicy).hiddenFiles('read_file') : undefined;
      const files = readInstructionFiles(homeDir, projectRoot, warnOnce, sources, { hidden });
      for (const file of files) if (file.truncated) kernel.warn(`${file.file} is larger than the instruction limit; only its start is used`);
      sessions.set(key, files);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      return files;
    };
    kernel.hooks.buildSystemPrompt.tap({ name: NAME, stage: -100 }, (parts, context) => {
      const files = filesOf(context.sessionId, context.homeDir, context.projectRoot);
      // The caller's own text goes last, for the main agent only (a sub-agent has its role's prompt).
      const own = context.agentId === 'main' ? appended : '';
      return [BASE_SYSTEM_PROMPT, ...parts, renderInstructions(files), own];
    });
  },
});
