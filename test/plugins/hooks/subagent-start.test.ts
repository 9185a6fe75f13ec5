/**
 * SubagentStart: a hook's `hookSpecificOutput.additionalContext` joins the sub-agent's context (its
 * first request), as Claude Code documents, and not the main session's.
 */
import { afterEach, expect, test } from '@jest/globals';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { say } from '../../support/memory-provider.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const output = (text: string): string => `cat >/dev/null; printf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext: text } })}'`;

test("a SubagentStart hook's additionalContext reaches the sub-agent's request, only the matching type's, and never the main session's", async () => {
  const { root, home } = settingsSetup({
    SubagentStart: [
      { matcher: 'explore', hooks: [{ type: 'command', command: output('CONTEXT-FOR-EXPLORE') }] },
      { matcher: 'general', hooks: [{ type: 'command', command: output('CONTEXT-FOR-GENERAL') }] },
    ],
  });
  const { kernel, model } = await bootKernel([say('child done'), say('main done')], [createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    const child = kernel.createSession({ parent: kernel.session, agentType: 'explore' });
    for await (const _event of child.run({ prompt: 'look around', mode: 'default' })) void _event;
    await runPrompt(kernel, 'hello', 'default');
    const [childRequest, mainRequest] = model.requests.map((request) => JSON.stringify(request.messages));
    expect(childRequest).toContain('CONTEXT-FOR-EXPLORE');
    expect(childRequest).toContain('look around');
    expect(childRequest).not.toContain('CONTEXT-FOR-GENERAL');
    expect(mainRequest).not.toContain('CONTEXT-FOR-EXPLORE');
  } finally {
    await kernel.shutdown();
  }
});
