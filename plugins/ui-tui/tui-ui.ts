/** The `UserInterface` the CLI picks for a terminal without `-p`; the screen itself loads lazily. */
import type { PendingTrust } from '../../types/trust.js';
import type { CliOptions, KernelApi, UserInterface, UserOutput } from '../../types/plugin.js';
import type { NotificationPayload, ShutdownReason } from '../../types/hooks.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../types/permissions.js';
import { TuiOutput } from './tui-output.js';

export class TuiUserInterface implements UserInterface {
  readonly name = 'tui';
  /** The screen's side of the output: only run() attaches the screen to it. */
  readonly #screen = new TuiOutput();
  /**
   * What the kernel (and any plugin that resolves TOKENS.UserInterface) holds: notify and approve
   * only. With `attach` a plugin could put a screen of its own in front of the user's and answer
   * every approval, an organisation's policy questions included, as the user.
   */
  readonly output: UserOutput = Object.freeze({
    notify: (payload: NotificationPayload): void => this.#screen.notify(payload),
    approve: (request: ApprovalRequest): Promise<ApprovalOutcome | undefined> => this.#screen.approve(request),
  });

  handles(options: CliOptions, stdinIsTTY: boolean): boolean {
    return options.prompt === undefined && stdinIsTTY && process.stdout.isTTY === true;
  }

  async decideTrust(pending: PendingTrust): Promise<boolean> {
    const { askTrust } = await import('./app/start.js');
    return askTrust(pending);
  }

  async run(kernel: KernelApi, options: CliOptions): Promise<number> {
    const { startTui } = await import('./app/start.js');
    const ended = await startTui(kernel, options, this.#screen);
    this.#endReason = ended.endReason;
    return ended.code;
  }

  #endReason: ShutdownReason = 'other';

  endReason(): ShutdownReason {
    return this.#endReason;
  }
}
