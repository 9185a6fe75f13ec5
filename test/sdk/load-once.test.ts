// loadOnce: one load shared by every caller, and a failure is not remembered.
import { loadOnce } from '../../sdk/load-once.js';

test('callers share one load', async () => {
  let loads = 0;
  const get = loadOnce(async () => ++loads);
  const [a, b] = await Promise.all([get(), get()]);
  expect([a, b, await get(), loads]).toEqual([1, 1, 1, 1]);
});

test('after a failure the next call loads again, and a success is then kept', async () => {
  let loads = 0;
  const get = loadOnce(async () => {
    loads++;
    if (loads === 1) throw new Error('file being replaced');
    return 'module';
  });
  await expect(get()).rejects.toThrow('file being replaced');
  expect(await get()).toBe('module');
  expect(await get()).toBe('module');
  expect(loads).toBe(2);
});
