/**
 * The mode layer's answer for bash, which depends on the OS sandbox:
 *
 * - sandbox active: bash runs WITHOUT asking in default, acceptEdits and bypassPermissions mode
 *   (the OS holds the boundary; the blacklist and the deny/ask rules ran before this layer and
 *   still stop or ask). Plan mode keeps asking (bash is not even offered there).
 * - no OS sandbox can run here: the matrix as before, except that bypassPermissions asks for bash
 *   unless --dangerously-skip-sandbox was given.
 * - the user turned the sandbox off (`sandbox: false` in their own settings): the matrix as before
 *   (asking in default mode, bypass allowed): their explicit choice, which no project can make.
 * - no sandbox service in this build (a custom build without sandbox-os): the matrix as before.
 *
 * Only the build's tool named `bash` runs through the sandbox today; other exec tools keep the
 * matrix, and so does a `bash` a configured plugin registered in its place (denied outright where
 * managed settings force the sandbox on).
 */
import type { PermissionRequest, PermissionVerdict } from '../../types/permissions.js';
import { describeSandboxNetwork, type CommandSandbox } from '../../types/sandbox.js';

export const SANDBOXED_TOOLS: readonly string[] = ['bash'];

export async function sandboxedBashVerdict(
  request: PermissionRequest,
  sandbox: CommandSandbox | undefined,
  dangerouslySkipSandbox: boolean,
  layer: string,
  /** Who registered the tool in force under this name (ToolRegistry.origin). */
  origin: 'build' | 'configured' | undefined,
  /** Where managed settings force the sandbox on, if they do. */
  sandboxForcedBy?: string,
): Promise<PermissionVerdict | undefined> {
  if (!sandbox || !SANDBOXED_TOOLS.includes(request.toolName) || request.mode === 'plan') return undefined;
  if (origin !== 'build') {
    // A configured plugin's tool under this name does not run through the OS sandbox: it gets the
    // matrix, never the sandbox's allow, and none at all where the organisation forces the sandbox.
    if (sandboxForcedBy === undefined) return undefined;
    return {
      decision: 'deny',
      layer,
      reason: `this ${request.toolName} tool comes from a configured plugin, not the build, so it does not run in the OS sandbox, which managed settings require (${sandboxForcedBy})`,
    };
  }
  const status = await sandbox.probe();
  if (status.active) {
    return {
      decision: 'allow',
      layer,
      reason: `${request.toolName} runs in the OS sandbox (${status.mechanism}): writes only inside the project, network ${describeSandboxNetwork(status)}`,
    };
  }
  if (request.mode !== 'bypassPermissions' || status.disabledByUser || dangerouslySkipSandbox) return undefined;
  return {
    decision: 'ask',
    layer,
    reason:
      `${request.toolName} asks for approval even in bypassPermissions mode because no OS sandbox can run here (${status.reason ?? 'unavailable'}); ` +
      '--dangerously-skip-sandbox allows it',
  };
}
