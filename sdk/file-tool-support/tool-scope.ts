/**
 * Which directories besides the project root the file tools may touch: the permission settings'
 * `additional_directories` (TOKENS.PermissionSettings, bound by permission-rules), read at call
 * time, so the tools' own descriptor checks (contained-fs.ts) allow exactly what the sandbox
 * layer allows. Nothing bound, or a failing service: the project root only.
 */
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionSettings } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';

export type AdditionalDirectories = () => readonly string[];

export interface FileToolOptions {
  additionalDirectories?: AdditionalDirectories;
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
