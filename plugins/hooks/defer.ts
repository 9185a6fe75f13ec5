/**
 * PreToolUse's `permissionDecision: "defer"` (Claude Code's newer answer): Claude Code leaves the
 * call pending for the program that drives it to settle later. MewCode has no deferred call, so
 * the closest honest answer is used: where a person can be asked (the terminal UI, an editor over
 * ACP: no `-p` prompt on the command line) the call becomes their question; elsewhere (a `-p`
 * run, the programmatic API) the permission mode's own flow decides, as if the hook had said
 * nothing. Each deferring hook is warned about once, naming its file.
 */
import type { KernelApi } from '../../types/plugin.js';

export class Deferrals {
  private readonly warned = new Set<string>();

  constructor(private readonly kernel: Pick<KernelApi, 'cli' | 'warn'>) {}

  /** Whether a person can answer a question in this run: a UI started without a `-p` prompt. */
  canAsk(): boolean {
    const cli = this.kernel.cli;
    return cli !== undefined && cli.prompt === undefined;
  }

  /** Once per hook (`<file>:<line>:<column>`), what its defer became. */
  warn(hook: string): void {
    if (this.warned.has(hook)) return;
    this.warned.add(hook);
    const instead = this.canAsk() ? 'you are asked about the call instead' : 'the permission mode decides the call instead (no person to ask in this run)';
    this.kernel.warn(`hooks: ${hook}: PreToolUse permissionDecision "defer" is not supported (MewCode cannot leave a call pending): ${instead}`);
  }
}
