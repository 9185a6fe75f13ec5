/**
 * PreCompact hooks that block (exit 2, `decision: "block"`, `continue: false`), as Claude Code
 * defines them: a compaction the user asked for (`/compact`) does not happen and the reason is
 * shown; an automatic or emergency one still happens (the context must shrink), with a warning.
 */
import { afterEach, expect, test } from '@jest/globals';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { CompactionReason } from '../../../types/events.js';
import type { Message } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { fail, say } from '../../support/memory-provider.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const SUMMARY = 'SUMMARY of the conversation';

/** A compaction service that summarises every time, and compacts automatically once when `auto` is set. */
function compaction(calls: CompactionReason[], auto = false) {
  let asked = false;
  return definePlugin({
    name: 'test-compaction',
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.CompactionService).toConstantValue({
        shouldCompact: (_state, _context, messages) => auto && !asked && (messages?.length ?? 0) > 0 && (asked = true),
        compact: async (_messages: readonly Message[], { reason }: { reason: CompactionReason }): Promise<Message[]> => {
          calls.push(reason);
          return [{ role: 'user', content: [{ type: 'text', text: SUMMARY }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] }];
        },
      });
    }),
  });
}

const BLOCKERS: [string, string][] = [
  ['exit 2', "cat >/dev/null; echo 'do not compact now' >&2; exit 2"],
  ['decision: block', `cat >/dev/null; printf '%s' '${JSON.stringify({ decision: 'block', reason: 'do not compact now' })}'`],
  ['continue: false', `cat >/dev/null; printf '%s' '${JSON.stringify({ continue: false, stopReason: 'do not compact now' })}'`],
];

test.each(BLOCKERS)('%s on a manual compaction: nothing is compacted, and the user is told why', async (_how, command) => {
  const { root, home } = settingsSetup({ PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command }] }] });
  const calls: CompactionReason[] = [];
  const { kernel, reporter } = await bootKernel([say('first answer')], [compaction(calls), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'hello', 'default');
    const before = kernel.session.conversation.messages;
    expect(await kernel.session.compact('default')).toBe(false);
    expect(calls).toEqual([]);
    expect(kernel.session.conversation.messages).toBe(before);
    expect(reporter.notices.join('\n')).toMatch(/Not compacted: hook .*settings\.yaml:\d+:\d+ blocked the compaction: do not compact now/);
  } finally {
    await kernel.shutdown();
  }
});

test('the same hook on an automatic and an emergency compaction: they happen, with a warning', async () => {
  const { root, home } = settingsSetup({ PreCompact: [{ hooks: [{ type: 'command', command: BLOCKERS[0]![1] }] }] });
  const calls: CompactionReason[] = [];
  // Request 1 answers, request 2 (after the automatic compaction) is too long, request 3 (after the emergency one) answers.
  const { kernel, model, reporter } = await bootKernel(
    [say('first answer'), fail('prompt_too_long', 'prompt is too long'), say('second answer')],
    [compaction(calls, true), createHooksPlugin({ env: { PATH: process.env.PATH } })],
    await trustedProject(root, home),
  );
  try {
    await runPrompt(kernel, 'hello', 'default');
    const events = await runPrompt(kernel, 'again', 'default');
    expect(calls).toEqual(['auto', 'emergency']);
    expect(doneEvent(events).finalText).toBe('second answer');
    expect(JSON.stringify(model.requests.at(-1)!.messages)).toContain(SUMMARY);
    expect(reporter.notices.filter((n) => /asked not to compact \(do not compact now\); compacting anyway/.test(n))).toHaveLength(2);
  } finally {
    await kernel.shutdown();
  }
});

test('a PreCompact hook that does not block: the manual compaction happens (the control)', async () => {
  const { root, home } = settingsSetup({ PreCompact: [{ matcher: 'manual', hooks: [{ type: 'command', command: 'cat >/dev/null; exit 0' }] }] });
  const calls: CompactionReason[] = [];
  const { kernel } = await bootKernel([say('first answer')], [compaction(calls), createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await runPrompt(kernel, 'hello', 'default');
    expect(await kernel.session.compact('default')).toBe(true);
    expect(calls).toEqual(['manual']);
  } finally {
    await kernel.shutdown();
  }
});
