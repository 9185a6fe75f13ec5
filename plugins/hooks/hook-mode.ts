/**
 * The permission mode a hook's `permission_mode` names, on every event, as Claude Code gives it.
 * A run's own mode when the event has one (a tool call, a prompt, a stop); otherwise (SessionStart,
 * SessionEnd, Notification, a compaction) the mode the session's last run was in, or, before any
 * run, the mode it starts in: --permission-mode when given, else the settings files' `defaultMode`
 * (Claude Code's `.claude/settings.json` included), as the UIs start. `dontAsk` — the default mode
 * with every question answered no — comes from the command line or, where it named no mode, from
 * a settings file's `defaultMode: dontAsk`, as the permission-mode plugin applies it.
 */
import { claudePermissionMode, type ClaudePermissionMode } from '../../sdk/claude-permission-mode.js';
import type { SessionContext } from '../../types/hooks.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';

export class HookModes {
  /** The mode of each session's last run (by session and agent; a sub-agent falls back on its session's main). */
  private readonly last = new Map<string, PermissionMode>();

  constructor(private readonly kernel: KernelApi) {}

  /** Claude Code's spelling of the mode in effect for `context`, recording a run's mode as the session's latest. */
  of(context: SessionContext & { mode?: PermissionMode }): ClaudePermissionMode {
    const key = `${context.sessionId}/${context.agentId}`;
    if (context.mode) this.last.set(key, context.mode);
    const mode = context.mode ?? this.last.get(key) ?? this.last.get(`${context.sessionId}/main`) ?? this.starting();
    return claudePermissionMode(mode, this.dontAsk());
  }

  private settings() {
    return this.kernel.container.isBound(TOKENS.PermissionSettings) ? this.kernel.container.get(TOKENS.PermissionSettings) : undefined;
  }

  /** Read when asked: the project's `defaultMode` counts only once the project is trusted, which may come later. */
  private starting(): PermissionMode {
    const cli = this.kernel.cli;
    if (cli?.permissionModeGiven) return cli.permissionMode;
    return this.settings()?.defaultMode() ?? cli?.permissionMode ?? 'default';
  }

  private dontAsk(): boolean {
    const cli = this.kernel.cli;
    if (cli?.dontAsk === true) return true;
    return cli?.permissionModeGiven !== true && this.settings()?.defaultDontAsk?.() === true;
  }
}
