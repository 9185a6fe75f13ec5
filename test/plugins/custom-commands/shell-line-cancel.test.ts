/**
 * A command's `!` lines stop with the run that typed the command: the cancel kills the running
 * line's process group (as a cancelled bash call is killed), no later line starts, and the
 * command ends without a prompt. A command file's and a skill's lines alike (they share one runner).
 */
import { afterEach, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import customCommands from '../../../plugins/custom-commands/index.js';
import skills from '../../../plugins/skills/index.js';
import outputLimits from '../../../plugins/output-limits/index.js';
import bashPlugin from '../../../plugins/tool-bash/index.js';
import { bootKernel } from '../../support/boot.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function until(done: () => boolean): Promise<void> {
  while (!done()) await sleep(20);
}

const BODY = 'Started: !`touch STARTED; (sleep 3; touch ORPHAN) & sleep 3 && touch BANGDONE`\nThen: !`touch SECOND`\nSummarise.\n';

test.each([
  ['a command file', (home: string) => writeFile(path.join(home, '.claude', 'commands', 'slow.md'), `---\ndescription: slow\n---\n${BODY}`)],
  ['a skill', (home: string) => writeFile(path.join(home, '.claude', 'skills', 'slow', 'SKILL.md'), `---\nname: slow\ndescription: slow\n---\n${BODY}`)],
])("cancelling %s's run kills its running `!` line (its process group too) and starts no later line", async (_what, setUp) => {
  const home = temp('mewcode-bang-cancel-home-');
  const root = temp('mewcode-bang-cancel-root-');
  setUp(home);
  const { kernel } = await bootKernel([], [outputLimits, bashPlugin, customCommands, skills], { projectRoot: root, homeDir: home });
  try {
    const command = kernel.commands().find((c) => c.name === 'slow');
    expect(command).toBeDefined();
    const controller = new AbortController();
    const t0 = Date.now();
    const running = command!.run(kernel.session, '', { mode: 'bypassPermissions', signal: controller.signal });
    await until(() => existsSync(path.join(root, 'STARTED')));
    controller.abort();
    const result = await running;
    expect(Date.now() - t0).toBeLessThan(2_500);
    expect(result.prompt).toBeUndefined();
    expect(result.isError).toBe(true);
    await sleep(3_500);
    expect(existsSync(path.join(root, 'BANGDONE'))).toBe(false);
    expect(existsSync(path.join(root, 'ORPHAN'))).toBe(false);
    expect(existsSync(path.join(root, 'SECOND'))).toBe(false);
  } finally {
    await kernel.shutdown();
  }
}, 20_000);

function writeFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}
