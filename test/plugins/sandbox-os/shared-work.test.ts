/**
 * What sandboxed calls side by side share: one preparation while it runs (shared-while-running.ts)
 * and the sweeps after their commands (coalesced-sweeps.ts). Pure scheduling, no sandbox.
 */
import { CoalescedSweeps } from '../../../plugins/sandbox-os/coalesced-sweeps.js';
import { SharedWhileRunning } from '../../../plugins/sandbox-os/shared-while-running.js';

function deferred(): { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('calls with one key share the work while it runs; once it settled (or failed) the next call works again; another key never shares', async () => {
  const shared = new SharedWhileRunning<number>();
  let runs = 0;
  const gate = deferred();
  const work = async (): Promise<number> => {
    const run = ++runs;
    await gate.promise;
    return run;
  };
  const a = shared.join('k', work);
  const b = shared.join('k', work);
  const other = shared.join('other', work);
  gate.resolve();
  expect(await Promise.all([a, b, other])).toEqual([1, 1, 2]);
  await settled();
  expect(await shared.join('k', work)).toBe(3);

  const failing = shared.join('k', async () => {
    throw new Error('unreadable');
  });
  await expect(failing).rejects.toThrow('unreadable');
  await settled();
  expect(await shared.join('k', work)).toBe(4);
});

test('a command ending while its group is swept waits for the next sweep, which covers every command ended by its start from the earliest start', async () => {
  const sweeps = new CoalescedSweeps<object>();
  const group = {};
  const started: number[] = [];
  const gates: ReturnType<typeof deferred>[] = [];
  const sweep = (since: number): Promise<void> => {
    started.push(since);
    const gate = deferred();
    gates.push(gate);
    return gate.promise;
  };
  const done: string[] = [];
  const first = sweeps.after(group, 300, sweep).then(() => done.push('first'));
  expect(started).toEqual([300]); // at once: nothing else is sweeping the group

  // Three commands end while that sweep runs: none is swept yet.
  const later = [sweeps.after(group, 200, sweep), sweeps.after(group, 250, sweep), sweeps.after(group, 100, sweep)].map((ended, i) => ended.then(() => done.push(`later${i}`)));
  await settled();
  expect(started).toEqual([300]);

  gates[0]!.resolve();
  await first;
  await settled();
  // One sweep for the three, from the earliest of their starts, begun after the first was done.
  expect(started).toEqual([300, 100]);
  expect(done).toEqual(['first']);

  // One more ends during that sweep: it gets a sweep of its own after it, and waits for it.
  const last = sweeps.after(group, 400, sweep).then(() => done.push('last'));
  gates[1]!.resolve();
  await Promise.all(later);
  await settled();
  expect(done).toEqual(['first', 'later0', 'later1', 'later2']);
  expect(started).toEqual([300, 100, 400]);
  gates[2]!.reject(new Error('a sweep that fails still ends its turn'));
  await last;

  // Idle again: the next command is swept at once.
  void sweeps.after(group, 500, sweep);
  expect(started).toEqual([300, 100, 400, 500]);
  gates[3]!.resolve();
});

test('commands of other groups (prepared apart) are swept side by side, each at once', () => {
  const sweeps = new CoalescedSweeps<object>();
  const started: number[] = [];
  const sweep = (since: number): Promise<void> => {
    started.push(since);
    return new Promise(() => undefined);
  };
  void sweeps.after({}, 1, sweep);
  void sweeps.after({}, 2, sweep);
  expect(started).toEqual([1, 2]);
});
