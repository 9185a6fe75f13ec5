/**
 * The stable system prompt: MewCode's base prompt plus project instructions, then the
 * run's own appended text. A subfolder's instruction files join later, with the result of the
 * first file tool call under the folder (nested-instructions.ts). Every file loaded is told to
 * TOKENS.InstructionLoads' listeners (the hooks' InstructionsLoaded).
 */
import { ContainerModule } from 'inversify';
import type { SessionContext } from '../../types/hooks.js';
import type { InstructionLoads } from '../../types/instruction-loads.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { BASE_SYSTEM_PROMPT } from './base-prompt.js';
import { readInstructionFiles, renderInstructions, type InstructionFile } from './instructions.js';
import { LoadListeners } from './load-listeners.js';
import { NestedSessions } from './nested-sessions.js';

const NAME = 'system-prompt';
/** Sessions whose instruction files are kept. */
const MAX_SESSIONS = 16;
/** The listeners of this plugin's loads, bound for the others' read side. */
const LISTENERS = Symbol('mewcode/system-prompt/LoadListeners');

/** What a session's instruction files are, and what reading them counted (nested loads share it). */
interface SessionInstructions {
  files: InstructionFile[];
  included: ReadonlySet<string>;
  bytes: number;
  /** The InstructionsLoaded listeners told of these files. */
  told: Promise<void>;
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(LISTENERS).toConstantValue(new LoadListeners());
    bind(TOKENS.InstructionLoads).toDynamicValue((context): InstructionLoads => {
      const listeners = context.get<LoadListeners>(LISTENERS);
      return Object.freeze({ onLoad: (listener: Parameters<InstructionLoads['onLoad']>[0]) => listeners.add(listener) });
    });
  }),
  apply(kernel) {
    const listeners = kernel.container.get<LoadListeners>(LISTENERS);
    listeners.warn = (message) => kernel.warn(message);
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
    // What read_file would not read unasked (a Read(.env) deny or ask rule) is never imported.
    const hidden = (): ((absolutePath: string) => boolean) | undefined => (kernel.container.isBound(TOKENS.SearchPolicy) ? kernel.container.get(TOKENS.SearchPolicy).hiddenFiles('read_file') : undefined);
    // Read once per session: the prompt is built again when the model or the tool list changes,
    // and a file edited meanwhile must not change the cached prefix. A few sessions are kept (a
    // host running many queries in one process does not grow this without bound).
    const sessions = new Map<string, SessionInstructions>();
    const filesOf = (session: SessionContext): SessionInstructions => {
      const key = `${session.sessionId}\u0000${session.homeDir}\u0000${session.projectRoot}`;
      const known = sessions.get(key);
      if (known !== undefined) return known;
      const included = new Set<string>();
      const bytes = { total: 0 };
      const files = readInstructionFiles(session.homeDir, session.projectRoot, warnOnce, sources, { hidden: hidden(), included, bytes });
      for (const file of files) if (file.truncated) kernel.warn(`${file.file} is larger than the instruction limit; only its start is used`);
      const who: SessionContext = { sessionId: session.sessionId, agentId: session.agentId, projectRoot: session.projectRoot, homeDir: session.homeDir, ...(session.parentAgentId ? { parentAgentId: session.parentAgentId } : {}), ...(session.agentType ? { agentType: session.agentType } : {}) };
      const told = listeners.tell(files.map((file) => ({ session: who, filePath: file.file, memoryType: file.memoryType ?? 'Project', loadReason: file.importedBy !== undefined ? 'include' : 'session_start', ...(file.importedBy !== undefined ? { parentFilePath: file.importedBy } : {}) })));
      const state = { files, included, bytes: bytes.total, told };
      sessions.set(key, state);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      return state;
    };
    kernel.hooks.buildSystemPrompt.tap({ name: NAME, stage: -100 }, (parts, context) => {
      const files = filesOf(context).files;
      // The caller's own text goes last, for the main agent only (a sub-agent has its role's prompt).
      const own = context.agentId === 'main' ? appended : '';
      return [BASE_SYSTEM_PROMPT, ...parts, renderInstructions(files), own];
    });
    // The session's files are read (and their listeners told) as it starts, before its first request.
    kernel.hooks.sessionStart.tapPromise(NAME, async (session) => filesOf(session).told);
    kernel.hooks.sessionResume.tapPromise(NAME, async (session) => filesOf(session).told);
    if (sources.project) new NestedSessions(kernel, (session) => filesOf(session), hidden, warnOnce, listeners).tap(NAME);
  },
});
