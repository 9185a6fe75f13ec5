/**
 * Instruction files as they join a session's context (the system-prompt plugin's), told to other
 * plugins through TOKENS.InstructionLoads: Claude Code's InstructionsLoaded hook runs on them.
 */
import type { SessionContext } from './hooks.js';

/** Whose file it is, in Claude Code's words: the user's, the project's, the project's local one (`CLAUDE.local.md`). */
export type InstructionMemoryType = 'User' | 'Project' | 'Local' | 'Managed';

/**
 * Why it was loaded: read with the session's stable prompt (`session_start`), brought by a file
 * tool touching a file under its folder (`nested_traversal`), or imported by another (`include`).
 */
export type InstructionLoadReason = 'session_start' | 'nested_traversal' | 'include';

export interface InstructionLoad {
  session: SessionContext;
  /** Absolute path as the instructions name it. */
  filePath: string;
  memoryType: InstructionMemoryType;
  loadReason: InstructionLoadReason;
  /** nested_traversal: the file the tool touched. */
  triggerFilePath?: string;
  /** include: the file whose `@path` imported it. */
  parentFilePath?: string;
}

export interface InstructionLoads {
  /**
   * `listener` is told every file loaded from now on, in load order; a load waits for the
   * promise it returns (never for longer than the listener takes). The returned function stops it.
   */
  onLoad(listener: (load: InstructionLoad) => Promise<void> | void): () => void;
}
