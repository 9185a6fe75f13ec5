/**
 * The sweeps after commands prepared together (a turn's bash calls side by side), one at a time
 * per group. A sweep checks what changed since its commands started, so it covers every command
 * that ended before it began: a command that ends while its group's sweep runs waits for the
 * next one, which starts when that one is done and covers every command ended by then, from the
 * earliest of their starts. Four commands ending together cost two sweeps instead of four
 * running side by side on the one thread (and never two sweeps of one tree at once).
 */
interface Group {
  running: boolean;
  next: { since: number; done: Promise<void>; settle: () => void } | undefined;
}

export class CoalescedSweeps<Key extends object> {
  private readonly groups = new WeakMap<Key, Group>();

  /** Resolves once a sweep that began after this command ended is done. `sweep` never rejects (it reports what it finds itself). */
  after(key: Key, since: number, sweep: (since: number) => Promise<void>): Promise<void> {
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { running: false, next: undefined };
      this.groups.set(key, group);
    }
    if (!group.running) return this.run(group, since, sweep);
    if (group.next) {
      group.next.since = Math.min(group.next.since, since);
      return group.next.done;
    }
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    group.next = { since, done, settle };
    return done;
  }

  private async run(group: Group, since: number, sweep: (since: number) => Promise<void>): Promise<void> {
    group.running = true;
    try {
      await sweep(since).catch(() => undefined);
    } finally {
      group.running = false;
      const next = group.next;
      group.next = undefined;
      if (next) void this.run(group, next.since, sweep).then(next.settle);
    }
  }
}
