/**
 * The trust dialog (bin/main.ts): an interactive UI asks before the session starts, and on yes
 * the kernel boots again with the project's settings. The first, untrusted kernel must not have
 * started its plugins' background work: user-level MCP servers were spawned, connected and killed
 * for nothing, then spawned again. Runs the real `main` with the default plugins, a stand-in
 * interactive UI and a plugin that counts its `start()` calls.
 */
import { ContainerModule } from 'inversify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseCommandLine } from '../../bin/cli-args.js';
import { main } from '../../bin/main.js';
import { defaultPlugins } from '../../plugins/default-set.js';
import type { PendingTrust } from '../../types/trust.js';
import { definePlugin, type KernelApi, type UserInterface } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';

let work: string;
const savedEnv = { ...process.env };

beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'mewcode-trust-reboot-'));
  for (const dir of ['home', 'project/.mewcode']) mkdirSync(path.join(work, dir), { recursive: true });
  // A setting that needs trust (the permission mode), so the dialog has something to ask.
  writeFileSync(path.join(work, 'project/.mewcode/settings.yaml'), 'permissions:\n  default_mode: acceptEdits\n');
  process.env = { PATH: savedEnv.PATH, HOME: path.join(work, 'home'), ANTHROPIC_API_KEY: 'k', MEWCODE_PROVIDER: 'anthropic', MEWCODE_MODEL: 'm' };
});
afterEach(() => {
  process.env = savedEnv;
  rmSync(work, { recursive: true, force: true });
});

/** A stand-in interactive UI answering the trust dialog with `answer`; its run sees the kernel it got. */
function interactiveUi(answer: boolean) {
  const seen = { asked: [] as PendingTrust[], ranWith: undefined as KernelApi | undefined };
  const ui: UserInterface = {
    name: 'stand-in',
    handles: () => true,
    output: { notify: () => undefined },
    decideTrust: async (pending) => {
      seen.asked.push(pending);
      return answer;
    },
    run: async (kernel) => {
      seen.ranWith = kernel;
      return 0;
    },
  };
  const plugin = definePlugin({ name: 'stand-in-ui', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.UserInterface).toConstantValue(ui)) });
  return { plugin, seen };
}

function startCounter() {
  const kernels: KernelApi[] = [];
  const plugin = definePlugin({
    name: 'start-counter',
    async start(kernel: KernelApi) {
      kernels.push(kernel);
    },
  });
  return { plugin, kernels };
}

const withoutBuiltInUis = defaultPlugins.filter((p) => p.name !== 'ui-headless' && p.name !== 'ui-tui');

test.each([
  ['granted: the kernel boots again, and only the second one starts', true],
  ['refused: the one kernel starts, once', false],
])('trust %s', async (_, answer) => {
  const ui = interactiveUi(answer);
  const counter = startCounter();
  const command = parseCommandLine([], path.join(work, 'project'));
  if (command.kind !== 'run') throw new Error('no arguments are a run');
  const code = await main(command.options, [...withoutBuiltInUis, counter.plugin, ui.plugin]);
  expect(code).toBe(0);
  expect(ui.seen.asked.map((p) => p.settings.map((s) => s.key))).toEqual([['permissions.default_mode']]);
  expect(counter.kernels).toHaveLength(1);
  // The kernel that started its plugins is the one the session ran on, with the user's answer.
  expect(counter.kernels[0]!.session).toBe(ui.seen.ranWith!.session); // (a plugin sees a read-only view of the container)
  expect(ui.seen.ranWith!.container.get(TOKENS.WorkspaceTrust).isTrusted()).toBe(answer);
});
