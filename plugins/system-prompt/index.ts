/**
 * The stable system prompt: MewCode's base prompt plus project instructions, then the
 * run's own appended text. A subfolder's instruction files join later, with the result of the
 * first file tool call under the folder (nested-instructions.ts). Every file is judged by the
 * permission chain as a read_file of it before it is used (judged-reads.ts): a session's files are
 * read and judged as it starts or resumes (sessionStart, sessionResume), once, so the prompt built
 * from them stays byte-identical. Every file loaded is told to TOKENS.InstructionLoads' listeners
 * (the hooks' InstructionsLoaded).
 */
import { ContainerModule } from 'inversify';
import type { SessionContext } from '../../types/hooks.js';
import type { InstructionLoads } from '../../types/instruction-loads.js';
import { definePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { BASE_SYSTEM_PROMPT } from './base-prompt.js';
import { readInstructionFiles, renderInstructions, type InstructionFile } from './instructions.js';
import { chainReadJudge, keepJudged, type ReadingSession } from './judged-reads.js';
import { LoadListeners } from './load-listeners.js';
import { NestedSessions } from './nested-sessions.js';
import { ReadGrants } from './read-grants.js';

const NAME = 'system-prompt';
/** Sessions whose instruction files are kept. */
const MAX_SESSIONS = 16;
/** The listeners of this plugin's loads, bound for the others' read side. */
const LISTENERS = Symbol('mewcode/system-prompt/LoadListeners');
/** The file being judged, offered to the sandbox for that decision (read-grants.ts). */
const GRANTS = Symbol('mewcode/system-prompt/ReadGrants');

/** What a session's instruction files are, and what reading them counted (nested loads share it). */
interface SessionInstructions {
  /** The files the permission chain let through; undefined until judged. */
  files: InstructionFile[] | undefined;
  included: ReadonlySet<string>;
  bytes: number;
  /** Judged, and the InstructionsLoaded listeners told of the files kept. */
  ready: Promise<void>;
}

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  bindings: new ContainerModule(({ bind }) => {
    bind(LISTENERS).toConstantValue(new LoadListeners());
    bind(GRANTS).toConstantValue(new ReadGrants());
    bind(TOKENS.ReadOnlyDirectories).toDynamicValue((context) => {
      const grants = context.get<ReadGrants>(GRANTS);
      return Object.freeze({ directories: (session: { sessionId: string; agentId: string }) => grants.directories(session) });
    });
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
    const grants = kernel.container.get<ReadGrants>(GRANTS);
    let reads = 0;
    const judgeFor = (who: ReadingSession) => chainReadJudge(kernel, who, grants, () => `instruction-read-${++reads}`);
    const startMode = kernel.cli?.permissionMode ?? 'default';
    // Read and judged once per session: the prompt is built again when the model or the tool list
    // changes, and a file edited meanwhile must not change the cached prefix. A few sessions are
    // kept (a host running many queries in one process does not grow this without bound).
    const sessions = new Map<string, SessionInstructions>();
    const keyOf = (session: SessionContext): string => `${session.sessionId}\u0000${session.homeDir}\u0000${session.projectRoot}`;
    const filesOf = (session: SessionContext): SessionInstructions => {
      const key = keyOf(session);
      const known = sessions.get(key);
      if (known !== undefined) return known;
      const included = new Set<string>();
      const bytes = { total: 0 };
      const read = readInstructionFiles(session.homeDir, session.projectRoot, warnOnce, sources, { hidden: hidden(), included, bytes });
      const who: SessionContext = { sessionId: session.sessionId, agentId: session.agentId, projectRoot: session.projectRoot, homeDir: session.homeDir, ...(session.parentAgentId ? { parentAgentId: session.parentAgentId } : {}), ...(session.agentType ? { agentType: session.agentType } : {}) };
      // Nothing to judge: nothing to wait for.
      const state: SessionInstructions = { files: read.length === 0 ? [] : undefined, included, bytes: bytes.total, ready: Promise.resolve() };
      if (read.length > 0) state.ready = (async () => {
        const kept = await keepJudged(read, judgeFor({ ...who, mode: startMode }), warnOnce);
        // A prompt built before the judgement ended (no start announced) keeps what it had.
        if (state.files !== undefined) return;
        state.files = kept;
        for (const file of kept) if (file.truncated) kernel.warn(`${file.file} is larger than the instruction limit; only its start is used`);
        await listeners.tell(kept.map((file) => ({ session: who, filePath: file.file, memoryType: file.memoryType ?? 'Project', loadReason: file.importedBy !== undefined ? 'include' : 'session_start', ...(file.importedBy !== undefined ? { parentFilePath: file.importedBy } : {}) })));
      })();
      sessions.set(key, state);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
      return state;
    };
    /**
     * The judged files for a prompt. A session whose start was never announced (a host building a
     * prompt before sessionStart) has had nothing judged: no instruction file is in its prompt, and
     * it stays so for the session (the prefix is stable), with a warning.
     */
    const judgedFilesOf = (session: SessionContext): InstructionFile[] => {
      const state = filesOf(session);
      if (state.files === undefined) {
        state.files = [];
        warnOnce("instruction files are not in this session's prompt: it was built before the session's start (sessionStart or sessionResume) was announced, so the permission chain could not judge reading them");
      }
      return state.files;
    };
    kernel.hooks.buildSystemPrompt.tap({ name: NAME, stage: -100 }, (parts, context) => {
      const files = judgedFilesOf(context);
      // The caller's own text goes last, for the main agent only (a sub-agent has its role's prompt).
      const own = context.agentId === 'main' ? appended : '';
      return [BASE_SYSTEM_PROMPT, ...parts, renderInstructions(files), own];
    });
    // The session's files are read, judged (and their listeners told) as it starts, before its first request.
    kernel.hooks.sessionStart.tapPromise(NAME, async (session) => filesOf(session).ready);
    kernel.hooks.sessionResume.tapPromise(NAME, async (session) => filesOf(session).ready);
    if (sources.project) new NestedSessions(kernel, (session) => filesOf(session), hidden, warnOnce, listeners, judgeFor).tap(NAME);
  },
});
