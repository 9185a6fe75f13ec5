/**
 * Permission layer 1, the dangerous-command blacklist (A1, A2, A10). Taps checkPermission at
 * PermissionStage.Blacklist for command-executing calls (`target.kind === 'command'`): every
 * segment of the command (sdk/shell-command) is checked against the ten patterns of A2
 * (see patterns.ts) and against destructive verbs aimed outside the project (outside-targets.ts:
 * recursive rm, find -delete, mv, chmod/chown -R, dd of=, truncate, shred, interpreters removing
 * trees, whose target is not a literal path inside the project or an additional directory); a hit is a deny that no rule, mode (bypassPermissions included) or approval
 * can turn into an allow. No hit: no verdict, the next layer decides. Essential: `disable:` in
 * configuration cannot remove it. It has no configuration on purpose.
 *
 * A second check (stage Rules + 50, after the user's rules, before the mode layer): when no OS
 * sandbox confines the command, one the checks cannot read all of (unverifiable.ts: interpreter
 * code, computed command names, command-running options, opaque constructs) asks instead of
 * running — in bypassPermissions mode too; headless, an ask is refused.
 */
import path from 'node:path';
import type { Container } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { PermissionSettings } from '../../types/services.js';
import { TOKENS } from '../../types/tokens.js';
import { PermissionStage, type PermissionVerdict } from '../../types/permissions.js';
import { loadOnce } from '../../sdk/load-once.js';
import { commandConfined } from '../../types/command-confined.js';

/** The tools the OS sandbox runs (the mode layer's list: only bash today). */
type CheckModule = typeof import('./check.js');

const NAME = 'permission-blacklist';

// The checks (and the shell parser they use) are imported at the first command or while the first
// request waits (warm), never at boot; one import per process, retried after a failure.
const loadChecks = loadOnce<CheckModule>(() => import('./check.js'));

export default definePlugin({
  name: NAME,
  version: '0.1.0',
  essential: true,
  // The parser's WebAssembly takes tens of ms to load: not between the first answer and a bash call.
  async warm() {
    await (await loadChecks()).loadShellParser();
  },
  apply(kernel) {
    let warned = false;
    const onParserFailure = (error: unknown): void => {
      if (warned) return;
      warned = true;
      kernel.warn(`${NAME}: the shell parser could not be loaded (${(error as Error).message ?? String(error)}); commands are checked as text only`);
    };
    kernel.hooks.checkPermission.tapPromise({ name: NAME, stage: PermissionStage.Blacklist }, async (request): Promise<PermissionVerdict | undefined> => {
      if (request.target.kind !== 'command') return undefined;
      const { checkCommand } = await loadChecks();
      const command = request.target.command;
      if (typeof command !== 'string') {
        return { decision: 'deny', layer: NAME, reason: `could not read the command of this ${request.toolName} call, so it cannot be checked` };
      }
      const workdir = (request.input as Record<string, unknown> | undefined)?.workdir;
      const hit = await checkCommand(command, {
        projectRoot: request.projectRoot,
        homeDir: kernel.homeDir,
        ...(typeof workdir === 'string' && workdir !== '' ? { startDir: path.resolve(request.projectRoot, workdir) } : {}),
        additionalDirectories: additionalDirectories(kernel.container),
        onParserFailure,
        sandboxed: await commandConfined(kernel.container, request.toolName),
      });
      if (!hit) return undefined;
      const how = hit.fromRawText ? ' (the command could not be parsed, so it was checked as text)' : '';
      return { decision: 'deny', layer: NAME, reason: `blocked dangerous command: ${hit.pattern} in segment "${hit.segment}"${how}` };
    });
    // Fail closed where nothing confines the command: what the checks above cannot read asks
    // (refused headless). After the rules (their deny still wins), before the mode layer.
    kernel.hooks.checkPermission.tapPromise({ name: `${NAME}:unverifiable`, stage: PermissionStage.Rules + 50 }, async (request): Promise<PermissionVerdict | undefined> => {
      const command = request.target.kind === 'command' ? request.target.command : undefined;
      if (typeof command !== 'string' || (await commandConfined(kernel.container, request.toolName))) return undefined;
      const workdir = (request.input as Record<string, unknown> | undefined)?.workdir;
      const why = await (await loadChecks()).unverifiableCommand(command, {
        projectRoot: request.projectRoot,
        homeDir: kernel.homeDir,
        ...(typeof workdir === 'string' && workdir !== '' ? { startDir: path.resolve(request.projectRoot, workdir) } : {}),
        additionalDirectories: additionalDirectories(kernel.container),
      });
      if (why === undefined) return undefined;
      return {
        decision: 'ask',
        layer: NAME,
        reason: `no OS sandbox confines this command and the blacklist cannot check all of it: ${why}; write it as plain shell commands, or approve it`,
      };
    });
  },
});

/** permissions.additional_directories from the settings owner, if one is bound; none on failure. */
function additionalDirectories(container: Container): readonly string[] {
  if (!container.isBound(TOKENS.PermissionSettings)) return [];
  try {
    const dirs = container.get<PermissionSettings>(TOKENS.PermissionSettings).additionalDirectories();
    return Array.isArray(dirs) ? dirs.filter((d): d is string => typeof d === 'string') : [];
  } catch {
    return [];
  }
}
