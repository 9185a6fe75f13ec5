/**
 * Permission layer 2, the file sandbox (A1, A3, A4). Taps checkPermission at
 * PermissionStage.Sandbox for calls whose tool declares a path target (`target.kind === 'path'`:
 * read_file, write_file, edit_file, glob/grep roots): a path that resolves outside the project
 * root — symlinks followed, `..` normalised, `~` expanded — and outside every additional
 * directory is denied, in every mode (bypassPermissions included) — except a read_file of a path
 * an allow rule names by absolute or `~/` path (Claude Code's `Read(//abs/**)`, from a source
 * trusted to grant, and not a path the OS sandbox hides: sdk/file-tool-support/outside-read.ts),
 * which goes on to the rules. MewCode's own session records and saved tool outputs are refused
 * wherever they are (sdk/private-records.ts), but for the current session's saved tool results
 * and its own `.mewcode/tool-output/<id>/` folder, which it may read.
 * Inside: no verdict, the next layer decides. Essential: `disable:` in configuration cannot remove it.
 *
 * Additional directories (`permissions.additional_directories`) come from the PermissionSettings
 * service (TOKENS.PermissionSettings, types/services.ts), bound by the permission-rules plugin,
 * read at check time and only for a path outside the project root; when nothing is bound, only
 * the project root is allowed. The sandbox never reads settings files itself (one loader).
 */
import type { Container } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import path from 'node:path';
import { PermissionStage, type PermissionRequest, type PermissionVerdict } from '../../types/permissions.js';
import type { PermissionSettings } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { checkSandboxPath } from './sandbox.js';
import { readOnlyDirectoriesOf } from '../../sdk/file-tool-support/tool-scope.js';
import { OUTSIDE_READ_TOOLS, outsideReadsOf } from '../../sdk/file-tool-support/outside-read.js';
import { privateRecordReason } from '../../sdk/private-records.js';
import { expandHome, resolveRealSync } from '../../sdk/path-containment.js';

export { checkSandboxPath, type SandboxResult, type SandboxScope } from './sandbox.js';

const NAME = 'permission-sandbox';

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  essential: true,
  apply(kernel) {
    const homeDir = kernel.homeDir;
    let warned = false;
    const warnOnce = (message: string): void => {
      if (!warned) kernel.warn(message);
      warned = true;
    };
    const readOnlyDirectories = readOnlyDirectoriesOf(kernel);
    const outsideReads = outsideReadsOf(kernel);
    kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Sandbox }, async (request): Promise<PermissionVerdict | undefined> => {
      if (request.target.kind !== 'path') return undefined;
      // A read-only tool may also read the folders this session may only read (an active skill's).
      const readOnly = request.tool?.readOnly === true && request.category === 'read' && request.sessionId !== undefined && request.agentId !== undefined;
      const additionalDirectories = (): readonly string[] => [
        ...readAdditionalDirectories(kernel.container, warnOnce),
        ...(readOnly ? readOnlyDirectories({ sessionId: request.sessionId!, agentId: request.agentId! }) : []),
      ];
      const result = await checkSandboxPath(request.target.path, { projectRoot: request.projectRoot, homeDir, additionalDirectories });
      const records = privateRecordVerdict(request, homeDir, result.ok ? result.resolved : result.outside?.real);
      if (records !== undefined) return records;
      if (result.ok) return undefined;
      // Claude Code's `Read(//abs/…)` / `Read(~/…)` allow rules: a read they name goes on to the
      // rules (where a deny or ask still wins); a hidden path (credentials) stays refused.
      if (result.outside && request.tool?.readOnly === true && request.category === 'read') {
        const grant = await outsideReads({ toolName: request.toolName, projectRoot: request.projectRoot, homeDir, ...result.outside });
        if (grant?.ok) return undefined;
        if (grant) return { decision: 'deny', layer: NAME, reason: grant.reason };
        if (OUTSIDE_READ_TOOLS.has(request.toolName)) return { decision: 'deny', layer: NAME, reason: `${result.reason}, or an allow rule naming the file by absolute or ~/ path (Read(//srv/docs/**), Read(~/notes/**)) in the user's settings or a trusted project's` };
      }
      return { decision: 'deny', layer: NAME, reason: result.reason };
    });
  },
});

/**
 * MewCode's own session records and saved tool outputs (sdk/private-records.ts), as written and where the path leads, in
 * every mode: the OS sandbox hides them from commands, and no file tool may be the way around it.
 */
function privateRecordVerdict(request: PermissionRequest, homeDir: string, real: string | undefined): PermissionVerdict | undefined {
  const target = request.target.kind === 'path' ? request.target.path : undefined;
  if (typeof target !== 'string' || target === '' || target.includes('\0')) return undefined;
  const written = path.resolve(request.projectRoot, expandHome(target, homeDir));
  let root = request.projectRoot;
  try {
    root = resolveRealSync(request.projectRoot);
  } catch {
    // the sandbox check has already refused the call
  }
  const scope = { projectRoots: [request.projectRoot, root], sessionId: request.sessionId, read: request.tool?.readOnly === true && request.category === 'read' };
  for (const candidate of new Set([written, real ?? written])) {
    const why = privateRecordReason(candidate, scope);
    if (why !== undefined) return { decision: 'deny', layer: NAME, reason: why };
  }
  return undefined;
}

/** The allowed extra directories from the settings owner, if one is bound; a failure allows none. */
function readAdditionalDirectories(container: Container, warn: (message: string) => void): readonly string[] {
  if (!container.isBound(TOKENS.PermissionSettings)) return [];
  try {
    const service = container.get<PermissionSettings>(TOKENS.PermissionSettings);
    const dirs = service.additionalDirectories();
    return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : [];
  } catch (error) {
    warn(`${NAME}: could not read permissions.additional_directories (${(error as Error).message}); only the project root is allowed`);
    return [];
  }
}
