/** The `UserInterface` the CLI picks for a terminal without `-p`; the screen itself loads lazily. */
import type { PendingTrust } from '../../types/trust.js';
import type { CliOptions, KernelApi, UserInterface } from '../../types/plugin.js';
import { TuiOutput } from './tui-output.js';

export class TuiUserInterface implements UserInterface {
  readonly name = 'tui';
  readonly output = new TuiOutput();

  handles(options: CliOptions, stdinIsTTY: boolean): boolean {
    return options.prompt === undefined && stdinIsTTY && process.stdout.isTTY === true;
  }

  async decideTrust(pending: PendingTrust): Promise<boolean> {
    const { askTrust } = await import('./app/start.js');
    return askTrust(pending);
  }

  async run(kernel: KernelApi, options: CliOptions): Promise<number> {
    const { startTui } = await import('./app/start.js');
    return startTui(kernel, options, this.output);
  }
}
