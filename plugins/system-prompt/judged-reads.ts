/**
 * Every file this plugin reads for the model — an instruction file, what it imports with `@path`,
 * a subfolder's instruction files and their imports — reaches the model only if the whole
 * permission chain allows reading it, judged as a `read_file` of that file (kernel.decidePermission:
 * the blacklist, the sandbox, the rules, every policy plugin's checkPermission tap, the mode),
 * and the decision is announced on `permissionDecided`, so the audit log records it (made_by
 * `system-prompt`). A file is judged where it is written and, when a link leads elsewhere, where
 * it leads. A deny leaves the file out, with a warning naming it and who denied; so does an ask:
 * nobody can be asked while a prompt is built, and the model can still read the file with
 * read_file, where the question is put. A file left out takes its own imports with it (their text
 * was reached through it).
 *
 * decidePermission, not callTool: no tool call is made, so preToolUse taps and the user's
 * PreToolUse/PostToolUse hooks are not run (as for a sub-agent's start, askPermission); the text
 * itself still passes the required plugins' buildSystemPrompt taps (the system prompt) or their
 * postToolUse taps (a subfolder's files, nested-sessions.ts).
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionMode, PermissionRequest } from '../../types/permissions.js';
import { isPathWithin } from '../../types/path-within.js';
import type { InstructionFile } from './instructions.js';
import type { ReadGrants } from './read-grants.js';

export type ReadVerdict = { ok: true } | { ok: false; reason: string };
/** Whether `file` (absolute) may be read for the model, and if not, why (the words after "not imported:"). */
export type ReadJudge = (file: string) => Promise<ReadVerdict>;

/** Whose read it is: the session (and agent) the text goes to, in its mode. */
export interface ReadingSession {
  sessionId: string;
  agentId: string;
  parentAgentId?: string;
  projectRoot: string;
  mode: PermissionMode;
}

function realOr(file: string): string {
  try {
    return realpathSync.native(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * The judge of one session's reads. A file outside the project (the user's own instruction files
 * and what they import from the home) is let past the sandbox's project boundary for that one
 * decision only (`grants`): the import rules are those files' boundary, and every later layer —
 * the rules, the organisation's policies — must still be asked (a policy denying `~/.ssh/*` holds).
 */
export function chainReadJudge(kernel: KernelApi, who: ReadingSession, grants: ReadGrants, nextCallId: () => string): ReadJudge {
  const root = realOr(who.projectRoot);
  return async (file) => {
    if (!kernel.decidePermission) return { ok: false, reason: 'this build cannot ask the permission chain about it, so it is not read for the model' };
    const real = realOr(file);
    const release = isPathWithin(root, real) ? undefined : grants.hold(who.sessionId, real);
    try {
      const request = {
        toolName: 'read_file',
        input: { file_path: file },
        mode: who.mode,
        sessionId: who.sessionId,
        agentId: who.agentId,
        ...(who.parentAgentId ? { parentAgentId: who.parentAgentId } : {}),
        projectRoot: who.projectRoot,
      } as unknown as PermissionRequest; // the kernel builds the rest from the registered read_file
      const verdict = await kernel.decidePermission(request, nextCallId());
      if (verdict.decision === 'allow') return { ok: true };
      const by = `${verdict.layer}${verdict.reason ? `: ${verdict.reason}` : ''}`;
      if (verdict.decision === 'ask') {
        return { ok: false, reason: `the permission chain asks before it is read (${by}), and nobody can be asked while instructions are loaded; ask for it to be read with read_file instead` };
      }
      return { ok: false, reason: `reading it was denied by ${by}` };
    } catch (error) {
      return { ok: false, reason: `the permission chain failed on it (${(error as Error).message})` };
    } finally {
      release?.();
    }
  };
}

/**
 * The files the judge lets through, in order: each judged where it is written and where it leads;
 * a refused one is named in a warning (an import by its importing file's line), and the files it
 * imports (directly or not) are left out with it, quietly.
 */
export async function keepJudged(files: readonly InstructionFile[], judge: ReadJudge, warn: (message: string) => void): Promise<InstructionFile[]> {
  const kept: InstructionFile[] = [];
  const refused = new Set<string>();
  for (const file of files) {
    if (file.importedBy !== undefined && refused.has(file.importedBy)) {
      refused.add(file.file);
      continue;
    }
    let verdict = await judge(file.file);
    if (verdict.ok && file.realPath !== undefined && file.realPath !== file.file) verdict = await judge(file.realPath);
    if (verdict.ok) {
      kept.push(file);
      continue;
    }
    refused.add(file.file);
    if (file.importedBy !== undefined && file.importedAt !== undefined) warn(`${file.importedBy}:${file.importedAt.line}: @${file.importedAt.written} is not imported: ${verdict.reason}`);
    else warn(`${file.file} is not used as instructions: ${verdict.reason}`);
  }
  return kept;
}
