/**
 * The checks after a command (the git sweep, the review that runs the host's git, the settings
 * sweep) read what a command left and then act on it. A command still running beside them (a
 * turn's bash calls side by side, a sub-agent's) could swap what was judged for something else
 * between the reading and the acting: a git directory renamed into place after its configuration
 * was read and before the host's git reads it. So a sweep waits until no sandboxed command runs,
 * and commands wait to start while a sweep waits or runs. Servers that run for the session (a
 * sandboxed MCP server) are not waited for: nothing would ever be checked.
 *
 * A turn's results wait for all of its calls anyway, so waiting for the last of them costs a turn
 * nothing; a call's result comes when the batch's last command has ended.
 */
export class SweepGate {
  private running = 0;
  private idle: (() => void)[] = [];
  /** Sweeps waiting or running, one after another. */
  private sweeps: Promise<void> = Promise.resolve();
  private sweepsPending = 0;

  /** Before a command starts: waits while a sweep waits or runs. Returns the call that marks its end (once). */
  async enter(): Promise<() => void> {
    while (this.sweepsPending > 0) await this.sweeps;
    this.running++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.running === 0) for (const resume of this.idle.splice(0)) resume();
    };
  }

  /** Runs `sweep` once no command runs, and lets none start until it is done. */
  exclusive(sweep: () => Promise<void>): Promise<void> {
    this.sweepsPending++;
    const run = this.sweeps.then(async () => {
      if (this.running > 0) await new Promise<void>((resume) => this.idle.push(resume));
      await sweep();
    });
    this.sweeps = run.catch(() => undefined).finally(() => this.sweepsPending--);
    return this.sweeps;
  }
}
