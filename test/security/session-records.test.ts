/**
 * Adversarial, through the real sandbox: MewCode's own session records. Each transcript keeps the
 * user's prompts (a pasted token) and every tool result (a `.env` the model read) verbatim, in
 * `<project>/.mewcode/sessions/`; a command in one project could read another project's with
 * `find ~ -name conversation.jsonl`, and a later session's command the earlier sessions of its
 * own project, or the saved full outputs of an earlier session's commands (a credential an
 * approved command printed). (Found by a red team.) The projects are the ones
 * `~/.mewcode/sessions.jsonl` lists. Control: this session's saved tool outputs stay readable.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { securityTally } from './attempts.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from '../plugins/sandbox-os/fixture.js';

const tally = securityTally('session-records');
afterAll(() => tally.save());

const SESSION = '20261201-120000-abcd';
const record = (root: string, secret: string): void => {
  mkdirSync(path.join(root, '.mewcode', 'sessions', SESSION), { recursive: true });
  writeFileSync(path.join(root, '.mewcode', 'sessions', SESSION, 'conversation.jsonl'), `{"role":"user","content":"deploy with ${secret}"}\n`);
};

let fx: SandboxFixture;
beforeAll(async () => {
  fx = await sandboxFixture();
  // Another project MewCode ran in (the fixture's `outside` folder), and an earlier session of this one.
  record(fx.outside, 'OTHER-PROJECT-TOKEN');
  writeFileSync(path.join(fx.outside, '.mewcode', 'audit.jsonl'), '{"input":"OTHER-AUDIT-TOKEN"}\n');
  record(fx.root, 'EARLIER-SESSION-TOKEN');
  // The fixture's bash calls run as session `sandbox-test`.
  mkdirSync(path.join(fx.root, '.mewcode', 'tool-output', 'sandbox-test'), { recursive: true });
  writeFileSync(path.join(fx.root, '.mewcode', 'tool-output', 'sandbox-test', 'bash-1.txt'), 'SPILLED-OUTPUT\n');
  mkdirSync(path.join(fx.root, '.mewcode', 'tool-output', SESSION), { recursive: true });
  writeFileSync(path.join(fx.root, '.mewcode', 'tool-output', SESSION, '1-call.log'), 'EARLIER-SPILL-TOKEN\n');
  writeFileSync(path.join(fx.root, '.mewcode', 'tool-output', '1-legacy.log'), 'LEGACY-SPILL-TOKEN\n');
  writeFileSync(path.join(fx.home, '.mewcode', 'sessions.jsonl'), [fx.outside, fx.root].map((root) => JSON.stringify({ v: 1, root, id: SESSION })).join('\n') + '\n');
});

test.each([
  ["another project's transcript, found by a search of the disk", (f: SandboxFixture) => `find ${path.dirname(f.outside)} -name conversation.jsonl 2>/dev/null | xargs cat 2>/dev/null; cat ${f.outside}/.mewcode/sessions/*/conversation.jsonl`, 'OTHER-PROJECT-TOKEN'],
  ["another project's audit log", (f: SandboxFixture) => `cat ${f.outside}/.mewcode/audit.jsonl`, 'OTHER-AUDIT-TOKEN'],
  ["an earlier session's transcript in this project", () => 'cat .mewcode/sessions/*/conversation.jsonl', 'EARLIER-SESSION-TOKEN'],
  ["an earlier session's saved outputs in this project", () => 'cat .mewcode/tool-output/*/*; grep -r TOKEN .mewcode', 'EARLIER-SPILL-TOKEN'],
  ['the saved outputs of older versions (one folder for every session)', () => 'cat .mewcode/tool-output/*', 'LEGACY-SPILL-TOKEN'],
] as const)('%s: hidden from commands', async (name, command, secret) => {
  if (skipWithoutSandbox(tally, name, fx.status)) return;
  const result = await fx.run(command(fx));
  const escaped = result.content.includes(secret);
  tally.attempt(`session-records: ${name}`, escaped);
  expect({ escaped, content: escaped ? result.content : '' }).toEqual({ escaped: false, content: '' });
});

test("control: this session's saved tool outputs stay readable", async () => {
  if (skipWithoutSandbox(tally, 'control', fx.status)) return;
  expect((await fx.run('cat .mewcode/tool-output/sandbox-test/bash-1.txt')).content).toContain('SPILLED-OUTPUT');
});
