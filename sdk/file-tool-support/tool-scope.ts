/**
 * Which directories besides the project root the file tools may touch: the permission settings'
 * `additional_directories` (TOKENS.PermissionSettings, bound by permission-rules), read at call
 * time, so the tools' own descriptor checks (contained-fs.ts) allow exactly what the sandbox
 * layer allows. Nothing bound, or a failing service: the project root only.
 */
import type { ToolRoots } from './judged-path.js';
import path from 'node:path';
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionSettings, ReadOnlyDirectories } from '../../types/services.js';
import type { WorkspaceFiles } from '../../types/workspace-io.js';
import { TOKENS } from '../../types/tokens.js';

export type AdditionalDirectories = () => readonly string[];

/** Folders a session may only read (an active skill's), from every TOKENS.ReadOnlyDirectories binding. */
export type SessionReadOnlyDirectories = (session: { sessionId: string; agentId: string }) => readonly string[];

export interface FileToolOptions {
  additionalDirectories?: AdditionalDirectories;
  /** Given only to tools that never write. */
  readOnlyDirectories?: SessionReadOnlyDirectories;
  /**
   * Where a file's text is read from and written to when not the disk (TOKENS.WorkspaceFiles, an
   * editor's buffers), looked up at each call; undefined: the disk. Every check stays on disk.
   */
  workspaceFiles?: () => WorkspaceFiles | undefined;
  /** The project and home a path resolves against before the call runs (judged-path.ts). */
  roots?: ToolRoots;
}

/**
 * The session kernel's TOKENS.WorkspaceFiles, when bound. A synchronous lookup, so the default
 * (unbound) path costs no extra await.
 */
export function workspaceFilesOf(kernel: KernelApi): () => WorkspaceFiles | undefined {
  return () => (kernel.container.isBound(TOKENS.WorkspaceFiles) ? kernel.container.get<WorkspaceFiles>(TOKENS.WorkspaceFiles) : undefined);
}

/** A failing or malformed source allows nothing (it must never widen what a tool may read). */
export function readOnlyDirectoriesOf(kernel: KernelApi): SessionReadOnlyDirectories {
  return (session) => {
    if (!kernel.container.isBound(TOKENS.ReadOnlyDirectories)) return [];
    const out: string[] = [];
    for (const source of kernel.container.getAll<ReadOnlyDirectories>(TOKENS.ReadOnlyDirectories)) {
      try {
        const dirs = source.directories(session);
        if (Array.isArray(dirs)) for (const dir of dirs) if (typeof dir === 'string' && path.isAbsolute(dir) && path.dirname(dir) !== dir) out.push(dir);
      } catch {
        // nothing from this source
      }
    }
    return out;
  };
}

export function additionalDirectoriesOf(kernel: KernelApi): AdditionalDirectories {
  return () => {
    if (!kernel.container.isBound(TOKENS.PermissionSettings)) return [];
    try {
      const dirs = kernel.container.get<PermissionSettings>(TOKENS.PermissionSettings).additionalDirectories();
      return Array.isArray(dirs) ? dirs.filter((dir): dir is string => typeof dir === 'string') : [];
    } catch {
      return [];
    }
  };
}
