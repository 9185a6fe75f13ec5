/**
 * Sandboxed calls that arrive together share one preparation (the hidden paths, the mount plan,
 * the review's state), but never across a tool call that ended: what it wrote, a later command's
 * preparation must read (sandbox-commands.ts). Observed through the read rules, which the sandbox
 * asks for once per preparation: they change while the first call is being prepared, and the
 * second call, started at that moment, reads the file only if it shared the first one's.
 */
import path from 'node:path';
import type { ToolOutput } from '../../../types/tools.js';
import type { SandboxReadRules } from '../../../types/sandbox.js';
import { securityTally } from '../../security/attempts.js';
import { sandboxFixture, skipWithoutSandbox, type SandboxFixture } from './fixture.js';

const tally = securityTally('sandbox-shared-preparation');
afterAll(() => tally.save());

const READABLE = 'exit_code: 0\nplans v2';

async function twoCallsTogether(callEndedBetween: boolean): Promise<{ fx: SandboxFixture; first: ToolOutput; second: ToolOutput } | undefined> {
  let hide = false;
  let duringFirst: (() => void) | undefined;
  let fx!: SandboxFixture;
  const readRules = (): SandboxReadRules | undefined => {
    const rules = hide ? { hidden: (file: string) => file === path.join(fx.root, 'plans.txt') } : undefined;
    const now = duringFirst;
    duringFirst = undefined;
    now?.();
    return rules;
  };
  fx = await sandboxFixture({ projectFiles: { 'plans.txt': 'plans v2' }, readRules });
  if (skipWithoutSandbox(tally, 'shared preparation', fx.status)) return undefined;
  let second: Promise<ToolOutput> | undefined;
  // While the first call is being prepared: a deny rule now covers the file (as a tool call that
  // ended could have made a secret) and the second call starts.
  duringFirst = () => {
    hide = true;
    if (callEndedBetween) fx.sandbox.callEnded();
    second = fx.run('cat plans.txt');
  };
  const first = await fx.run('cat plans.txt');
  return { fx, first, second: await second! };
}

test('a call that arrives while another is being prepared shares its preparation (it was made before the rule)', async () => {
  const ran = await twoCallsTogether(false);
  if (!ran) return;
  expect(ran.first.content).toBe(READABLE);
  expect(ran.second.content).toBe(READABLE);
});

test('a call after a tool call ended prepares its own: the file hidden since is hidden from it', async () => {
  const ran = await twoCallsTogether(true);
  if (!ran) return;
  expect(ran.first.content).toBe(READABLE);
  const read = ran.second.content.includes('plans v2');
  tally.attempt('a command reads a file hidden after another tool call ended, through a preparation shared from before', read);
  expect(read).toBe(false);
  expect(ran.second.content).toMatch(/^exit_code: 1\n/);
});
