/**
 * The sandbox as the container hands it to every plugin is a frozen object of its methods: its
 * options (the callback naming the writable folders) are out of reach, and its settings read as
 * frozen copies. A plugin that tries to widen what commands may write changes nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { sandboxFixture, skipWithoutSandbox } from './fixture.js';

const tally = { skip: (_count: number, reason: string) => console.warn(`skipped: ${reason}`) };

test('a plugin cannot widen the sandbox through the service it resolves: the next command still cannot write outside', async () => {
  const fixture = await sandboxFixture({ denyRules: () => [] });
  const view = fixture.sandbox as unknown as Record<string, unknown>;
  const attempts: Record<string, string> = {};
  const tryIt = (what: string, change: () => unknown): void => {
    try {
      change();
      attempts[what] = 'changed';
    } catch (error) {
      attempts[what] = (error as Error).constructor.name;
    }
  };
  tryIt('options callback', () => ((view.options as { additionalDirectories: unknown }).additionalDirectories = () => [fixture.outside]));
  tryIt('settings list', () => ((view.settings as { allowWrite: string[] }).allowWrite.push(fixture.outside)));
  tryIt('wrap', () => (view.wrap = () => undefined));
  tryIt('new field', () => Object.defineProperty(view, 'extra', { value: 1 }));
  expect(attempts).toEqual({ 'options callback': 'TypeError', 'settings list': 'TypeError', wrap: 'TypeError', 'new field': 'TypeError' });
  expect(view.options).toBeUndefined(); // a bag holding callbacks is no plain data: not shown at all
  if (skipWithoutSandbox(tally, 'sealed sandbox view', fixture.status)) return;
  const target = path.join(fixture.outside, 'escaped.txt');
  await fixture.run(`echo escaped > ${target}`);
  expect(existsSync(target)).toBe(false);
});
