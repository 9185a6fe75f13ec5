/**
 * Where nested instruction files join a session (nested-instructions.ts): a postToolUse tap on the
 * file tools (read_file, edit_file, write_file; a search's results bring none, as in Claude Code)
 * adds them to the call's result as a reminder. The result keeps its call's id and is persisted
 * with the history like any result, so a resumed session still has them; a resumed session in a
 * new process may load a file again, which is harmless. After a compaction (the summary may have
 * dropped them) each may load again.
 *
 * Each file (and import) is judged by the permission chain as a read_file of it by the agent whose
 * call brought it, in that call's mode (judged-reads.ts): a refused one stays out, with a warning.
 *
 * The tap runs after the policies and the user's PostToolUse hooks (they see the tool's own
 * output, as in Claude Code), so the text it adds passes the required plugins (a DLP) itself.
 */
import type { SessionContext } from '../../types/hooks.js';
import type { KernelApi } from '../../types/plugin.js';
import { filePathOf } from '../../sdk/file-tool-support/file-fields.js';
import { toolPathAbsolute } from '../../sdk/file-tool-support/tool-path.js';
import { keepJudged, type ReadingSession, type ReadJudge } from './judged-reads.js';
import type { LoadListeners } from './load-listeners.js';
import { NestedInstructions, renderNested } from './nested-instructions.js';

const FILE_TOOLS: ReadonlySet<string> = new Set(['read_file', 'edit_file', 'write_file']);
/** Agents whose nested loads are kept (sub-agents come and go). */
const MAX_AGENTS = 64;

export class NestedSessions {
  private readonly agents = new Map<string, NestedInstructions>();

  constructor(
    private readonly kernel: KernelApi,
    private readonly root: (session: SessionContext) => { included: ReadonlySet<string>; bytes: number },
    private readonly hidden: () => ((absolutePath: string) => boolean) | undefined,
    private readonly warn: (message: string) => void,
    private readonly listeners: LoadListeners,
    private readonly judgeFor: (who: ReadingSession) => ReadJudge,
  ) {}

  tap(name: string): void {
    // After the policies (≤ 999) and the user's PostToolUse hooks (999.5); before the recorders (1000+).
    this.kernel.hooks.postToolUse.tapPromise({ name, stage: 999.7 }, async (result, context) => {
      if (result.isError || !FILE_TOOLS.has(context.call.name)) return result;
      const written = filePathOf(context.input);
      if (typeof written !== 'string' || written === '') return result;
      const trigger = toolPathAbsolute(written, context.projectRoot, context.homeDir);
      const found = this.of(context).load(trigger);
      if (found.length === 0) return result;
      const who: ReadingSession = { sessionId: context.sessionId, agentId: context.agentId, ...(context.parentAgentId ? { parentAgentId: context.parentAgentId } : {}), projectRoot: context.projectRoot, mode: context.mode };
      const files = await keepJudged(found, this.judgeFor(who), this.warn);
      if (files.length === 0) return result;
      const session = sessionOf(context);
      await this.listeners.tell(files.map((file) => ({
        session,
        filePath: file.file,
        memoryType: file.memoryType ?? 'Project',
        loadReason: file.importedBy !== undefined ? 'include' : 'nested_traversal',
        ...(file.importedBy !== undefined ? { parentFilePath: file.importedBy } : { triggerFilePath: trigger }),
      })));
      const reminder = renderNested(files, trigger);
      // A policy that fails on the added text withholds it (its notice stands in its place), not the output.
      const { images: _images, ...rest } = result;
      const added = this.kernel.requiredPostToolUse
        ? await this.kernel.requiredPostToolUse({ ...rest, content: reminder, isError: false }, context)
        : { content: reminder };
      return { ...result, content: `${result.content}\n\n${added.content}` };
    });
    // The summary replaced the results that held them: they may load again.
    this.kernel.hooks.postCompact.tapPromise(name, async (_state, context) => {
      this.agents.delete(keyOf(context));
    });
  }

  private of(context: SessionContext): NestedInstructions {
    const key = keyOf(context);
    let nested = this.agents.get(key);
    if (nested === undefined) {
      nested = new NestedInstructions(context.homeDir, context.projectRoot, this.root(context), this.warn, this.hidden());
      this.agents.set(key, nested);
      if (this.agents.size > MAX_AGENTS) this.agents.delete(this.agents.keys().next().value!);
    }
    return nested;
  }
}

const keyOf = (context: SessionContext): string => `${context.sessionId}\u0000${context.agentId}\u0000${context.projectRoot}`;

function sessionOf(context: SessionContext): SessionContext {
  return { sessionId: context.sessionId, agentId: context.agentId, projectRoot: context.projectRoot, homeDir: context.homeDir, ...(context.parentAgentId ? { parentAgentId: context.parentAgentId } : {}), ...(context.agentType ? { agentType: context.agentType } : {}) };
}
