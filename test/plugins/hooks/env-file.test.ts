/**
 * Claude Code's CLAUDE_ENV_FILE: a SessionStart hook of the user's appends `export NAME=value`
 * lines, and the session's later bash commands get those variables (read, never run: nothing in
 * a value is expanded). A hook that runs contained (an untrusted project) is not given the file.
 */
import { afterEach, expect, test } from '@jest/globals';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { createHooksPlugin } from '../../../plugins/hooks/index.js';
import { parseEnvFile } from '../../../plugins/hooks/env-file.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import bashPlugin from '../../../plugins/tool-bash/index.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { bootKernel, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { settingsSetup, trustedProject } from './rule-setup.js';

afterEach(removeTempDirs);

const output = (request: { messages: readonly Message[] } | undefined): string => (request?.messages.at(-1) as ToolMessage | undefined)?.results[0]?.content ?? '';
const writer = [
  `echo 'export MC_STAGE=staging' >> "$CLAUDE_ENV_FILE"`,
  `echo "MC_QUOTED='two words'" >> "$CLAUDE_ENV_FILE"`,
  `echo 'export MC_EXPANDED=$(touch pwned)' >> "$CLAUDE_ENV_FILE"`,
].join('; ');
const probe = 'echo "[$MC_STAGE|$MC_QUOTED|$MC_EXPANDED]"; test -e pwned && echo PWNED || true';

test("a SessionStart hook's CLAUDE_ENV_FILE exports reach later bash commands; a line the shell would expand is skipped with a warning", async () => {
  const { root, home } = settingsSetup({ SessionStart: [{ hooks: [{ type: 'command', command: `cat >/dev/null; ${writer}` }] }] });
  const { kernel, model, reporter } = await bootKernel([useTools([call('bash', { command: probe })]), say('ok')], [outputLimits, bashPlugin, createHooksPlugin({ env: { PATH: process.env.PATH } })], await trustedProject(root, home));
  try {
    await kernel.startSession();
    await runPrompt(kernel, 'go', 'bypassPermissions');
    expect(output(model.requests[1])).toContain('[staging|two words|]');
    expect(output(model.requests[1])).not.toContain('PWNED');
    expect(reporter.warnings.join('\n')).toMatch(/CLAUDE_ENV_FILE: skipped 1 line/);
  } finally {
    await kernel.shutdown();
  }
});

test('a hook run contained (untrusted project, no sandbox here) gets no CLAUDE_ENV_FILE, so later commands get nothing from it', async () => {
  const { root, home } = settingsSetup({ SessionStart: [{ hooks: [{ type: 'command', command: `cat >/dev/null; ${writer}` }] }] });
  const trust = await createWorkspaceTrust({ projectRoot: root, homeDir: home });
  const { kernel, model } = await bootKernel([useTools([call('bash', { command: probe })]), say('ok')], [outputLimits, bashPlugin, createHooksPlugin({ env: { PATH: process.env.PATH } })], { projectRoot: root, homeDir: home, trust });
  try {
    await kernel.startSession();
    await runPrompt(kernel, 'go', 'bypassPermissions');
    expect(output(model.requests[1])).toContain('[||]');
  } finally {
    await kernel.shutdown();
  }
});

test('the file is read, not run: export lines with plain or quoted values; anything else is skipped', () => {
  expect(parseEnvFile("export A=1\nB='x y'\nexport C=\"p/q\"\n# note\n\nexport D=$HOME\nE=`id`\nexport F=a;rm\nnot a line\n")).toEqual({
    variables: { A: '1', B: 'x y', C: 'p/q' },
    skipped: ['export D=$HOME', 'E=`id`', 'export F=a;rm', 'not a line'],
  });
});
