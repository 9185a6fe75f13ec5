/**
 * start() is told when it is no longer waited for: its `signal` aborts at its time limit and at
 * shutdown, so a plugin can stop its requests and timers. A dispose() that never settles does not
 * hold shutdown (and so the process's end) open: it is a warning after DISPOSE_TIMEOUT_MS.
 */
import { definePlugin, type StartContext } from '../../types/plugin.js';
import { DISPOSE_TIMEOUT_MS } from '../../kernel/plugin-lifecycle.js';
import { bootKernel } from '../support/boot.js';

describe("start()'s signal and dispose()'s bound", () => {
  test('a start() still running at shutdown sees its signal abort; one past its bound saw it earlier', async () => {
    const reasons: Record<string, string> = {};
    const hanging = (name: string, startTimeoutMs?: number) =>
      definePlugin({
        name,
        ...(startTimeoutMs ? { startTimeoutMs } : {}),
        async start(kernel: StartContext) {
          await new Promise<void>((resolve) => kernel.signal.addEventListener('abort', () => {
            reasons[name] = (kernel.signal.reason as Error).message;
            resolve();
          }));
        },
      });
    const { kernel, reporter } = await bootKernel([], [hanging('slow', 60_000), hanging('quick', 50)]);
    kernel.startPlugins();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reasons).toEqual({ quick: 'did not finish start within 50 ms' });
    expect(reporter.warnings.some((w) => w.includes('plugin quick did not finish start within 50 ms'))).toBe(true);
    await kernel.shutdown();
    expect(reasons).toEqual({ quick: 'did not finish start within 50 ms', slow: 'MewCode is shutting down' });
  });

  test('a dispose() that never settles is a warning, and shutdown goes on', async () => {
    let laterDisposed = false;
    const stuck = definePlugin({ name: 'stuck', dispose: () => new Promise<void>(() => undefined) });
    const before = definePlugin({ name: 'before', dispose: () => void (laterDisposed = true) });
    const { kernel, reporter } = await bootKernel([], [before, stuck]);
    const started = Date.now();
    await kernel.shutdown();
    expect(Date.now() - started).toBeLessThan(DISPOSE_TIMEOUT_MS + 3_000);
    expect(laterDisposed).toBe(true);
    expect(reporter.warnings).toContain(`plugin stuck did not finish dispose within ${DISPOSE_TIMEOUT_MS} ms; shutting down without waiting for it`);
  }, 20_000);
});
