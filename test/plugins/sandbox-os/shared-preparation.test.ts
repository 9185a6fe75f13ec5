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

/** What happens between the two calls: nothing, a tool call ending, or a sandboxed command ending. */
type Between = 'nothing' | 'a tool call ended' | 'a command ended';

async function twoCallsTogether(between: Between): Promise<{ fx: SandboxFixture; first: ToolOutput; second: ToolOutput } | undefined> {
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
  // A command wrapped ahead (a hook's, another agent's), whose end can come at the chosen moment:
  // long-lived, so that the checks after the two calls, which wait for every other command that
  // runs (sweep-gate.ts), do not wait for it when it is released only after them.
  const other = await fx.sandbox.wrap({ argv: ['/bin/true'], cwd: fx.root, projectRoot: fx.root, homeDir: fx.home, longLived: true });
  if (other.kind !== 'sandboxed') throw new Error(`the other command was not sandboxed: ${other.kind}`);
  let otherReleased: Promise<void> | undefined;
  // While the first call is being prepared: a deny rule now covers the file (as a tool call or a
  // command that ended could have made a secret) and the second call starts.
  duringFirst = () => {
    hide = true;
    if (between === 'a tool call ended') fx.sandbox.callEnded();
    if (between === 'a command ended') otherReleased = other.launch.release();
    second = fx.run('cat plans.txt');
  };
  const first = await fx.run('cat plans.txt');
  const result = { fx, first, second: await second! };
  await (otherReleased ?? other.launch.release());
  return result;
}

test('a call that arrives while another is being prepared shares its preparation (it was made before the rule)', async () => {
  const ran = await twoCallsTogether('nothing');
  if (!ran) return;
  expect(ran.first.content).toBe(READABLE);
  expect(ran.second.content).toBe(READABLE);
});

test.each<Between>(['a tool call ended', 'a command ended'])('a call after %s prepares its own: the file hidden since is hidden from it', async (between) => {
  const ran = await twoCallsTogether(between);
  if (!ran) return;
  expect(ran.first.content).toBe(READABLE);
  const read = ran.second.content.includes('plans v2');
  tally.attempt(`a command reads a file hidden after ${between}, through a preparation shared from before`, read);
  expect(read).toBe(false);
  expect(ran.second.content).toMatch(/^exit_code: 1\n/);
});
