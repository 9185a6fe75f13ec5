/** The gate between commands and the checks after them (sweep-gate.ts): no sweep while a command runs, no command while a sweep waits or runs. */
import { SweepGate } from '../../../plugins/sandbox-os/sweep-gate.js';

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('a sweep waits for every running command to end, and a command arriving meanwhile waits for the sweep', async () => {
  const gate = new SweepGate();
  const log: string[] = [];
  const endA = await gate.enter();
  const endB = await gate.enter();
  endA();
  endA(); // once only
  const sweep = gate.exclusive(async () => {
    log.push('sweep start');
    await tick();
    log.push('sweep end');
  });
  const entering = gate.enter().then((endC) => {
    log.push('C starts');
    return endC;
  });
  await tick();
  await tick();
  expect(log).toEqual([]); // B still runs: neither the sweep nor C
  endB();
  await sweep;
  const endC = await entering;
  expect(log).toEqual(['sweep start', 'sweep end', 'C starts']);
  // With C running, the next sweep waits again.
  let swept = false;
  const next = gate.exclusive(async () => {
    swept = true;
  });
  await tick();
  expect(swept).toBe(false);
  endC();
  await next;
  expect(swept).toBe(true);
});

test('a sweep that fails does not hold the gate shut', async () => {
  const gate = new SweepGate();
  await gate.exclusive(async () => {
    throw new Error('boom');
  });
  const end = await gate.enter();
  end();
  let swept = false;
  await gate.exclusive(async () => {
    swept = true;
  });
  expect(swept).toBe(true);
});
