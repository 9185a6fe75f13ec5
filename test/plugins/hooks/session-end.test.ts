/**
 * SessionEnd's `reason`, as Claude Code sends it: `clear` for the session /clear leaves,
 * `resume` for the one a /resume of another session leaves (each before the new session's
 * SessionStart), `prompt_input_exit` when the user left the interactive UI, `other` otherwise;
 * the matcher tests the reason. Every SessionStart source is sent at its moment beside them.
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import type { Message } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

/** A hook command that appends `{label, …payload}` as one JSON line to `log`. */
function recorder(home: string, label: string, log: string): Record<string, string> {
  const script = path.join(home, `record-${label}.py`);
  writeFileSync(script, `import json, sys\npayload = json.load(sys.stdin)\nwith open(${JSON.stringify(log)}, 'a') as f:\n    f.write(json.dumps({"label": ${JSON.stringify(label)}, **payload}) + "\\n")\n`);
  return { type: 'command', command: `python3 ${script}` };
}

const records = (log: string): Record<string, any>[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : []);

function setup(): { root: string; home: string; log: string } {
  const root = temp('mewcode-session-end-root-');
  const home = temp('mewcode-session-end-home-');
  const log = path.join(root, 'sessions.jsonl');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'settings.yaml'),
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [recorder(home, 'start', log)] }],
        SessionEnd: [
          { hooks: [recorder(home, 'end', log)] },
          { matcher: 'clear', hooks: [recorder(home, 'end-clear-only', log)] },
          { matcher: 'prompt_input_exit', hooks: [recorder(home, 'end-exit-only', log)] },
        ],
      },
    }),
  );
  return { root, home, log };
}

/** A summary of the compaction, so the test sees SessionStart's `compact` source too. */
const summarising = definePlugin({
  name: 'test-compaction',
  bindings: new ContainerModule(({ bind }) => {
    bind(TOKENS.CompactionService).toConstantValue({
      shouldCompact: () => false,
      compact: async (): Promise<Message[]> => [{ role: 'user', content: [{ type: 'text', text: 'summary' }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }], toolCalls: [] }],
    });
  }),
});

test('/clear ends the session with reason clear, /resume of another with resume, leaving the UI with prompt_input_exit; each before the next SessionStart', async () => {
  const { root, home, log } = setup();
  const { kernel } = await bootKernel([say('one'), say('two'), say('three')], [summarising, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  await kernel.startSession();
  await runPrompt(kernel, 'first', 'default');
  const first = kernel.session.sessionId;
  const firstHistory = [...kernel.session.conversation.messages];
  await kernel.session.compact('default');
  // What the terminal UI's /clear does: a new session id, resumed with no history.
  const cleared = kernel.createSession().sessionId;
  await kernel.resumeSession({ sessionId: cleared, messages: [], agentId: 'main' });
  await runPrompt(kernel, 'second', 'default');
  // What its /resume <id> does: the saved session becomes the main one.
  await kernel.resumeSession({ sessionId: first, messages: firstHistory, agentId: 'main' });
  // Resuming the running session again ends nothing.
  await kernel.resumeSession({ sessionId: first, messages: [...kernel.session.conversation.messages], agentId: 'main' });
  await runPrompt(kernel, 'third', 'default');
  await kernel.shutdown('prompt_input_exit');

  const seen = records(log).map((r) => [r.label, r.hook_event_name, r.source ?? r.reason, r.session_id === first ? 'first' : r.session_id === cleared ? 'cleared' : r.session_id]);
  // Matching hooks of one moment run at once: their lines may come in either order.
  expect(seen.filter(([label]) => label === 'start' || label === 'end')).toEqual([
    ['start', 'SessionStart', 'startup', 'first'],
    ['start', 'SessionStart', 'compact', 'first'],
    ['end', 'SessionEnd', 'clear', 'first'],
    ['start', 'SessionStart', 'clear', 'cleared'],
    ['end', 'SessionEnd', 'resume', 'cleared'],
    ['start', 'SessionStart', 'resume', 'first'],
    ['start', 'SessionStart', 'resume', 'first'],
    ['end', 'SessionEnd', 'prompt_input_exit', 'first'],
  ]);
  expect(seen.filter(([label]) => String(label).endsWith('-only'))).toEqual([
    ['end-clear-only', 'SessionEnd', 'clear', 'first'],
    ['end-exit-only', 'SessionEnd', 'prompt_input_exit', 'first'],
  ]);
  const ends = records(log).filter((r) => r.label === 'end');
  expect(ends[0]!.transcript_path).toBe(path.join(root, '.mewcode', 'sessions', first, 'claude-transcript.jsonl'));
  expect(ends[1]!.transcript_path).toBe(path.join(root, '.mewcode', 'sessions', cleared, 'claude-transcript.jsonl'));
}, 40_000);

test('any other end (a -p run, a signal, the API) is reason other: matchers on clear or prompt_input_exit stay quiet', async () => {
  const { root, home, log } = setup();
  const { kernel } = await bootKernel([say('one')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  await kernel.startSession();
  await runPrompt(kernel, 'first', 'default');
  await kernel.shutdown();
  expect(records(log).map((r) => [r.label, r.hook_event_name, r.source ?? r.reason])).toEqual([
    ['start', 'SessionStart', 'startup'],
    ['end', 'SessionEnd', 'other'],
  ]);
});

test('MewCode\'s own rule files get the reason too, on the same moments', async () => {
  const root = temp('mewcode-session-end-root-');
  const home = temp('mewcode-session-end-home-');
  const log = path.join(root, 'own.log');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(
    path.join(home, '.mewcode', 'hooks.yaml'),
    `hooks:\n  - name: end\n    event: SessionEnd\n    action: { type: shell, command: "python3 -c 'import json,sys; open(\\"${log}\\",\\"a\\").write(json.load(sys.stdin)[\\"reason\\"] + \\"\\\\n\\")'" }\n`,
  );
  const { kernel } = await bootKernel([say('one')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  await kernel.startSession();
  await runPrompt(kernel, 'first', 'default');
  const cleared = kernel.createSession().sessionId;
  await kernel.resumeSession({ sessionId: cleared, messages: [], agentId: 'main' });
  await kernel.shutdown('prompt_input_exit');
  expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['clear', 'prompt_input_exit']);
});
