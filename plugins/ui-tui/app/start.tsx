/**
 * Mounts the terminal UI (this module and everything it imports are the lazily loaded chunk:
 * React, Ink, marked). `startTui` resolves to the exit code when the user leaves.
 */
import { render } from 'ink';
import type { CliOptions, KernelApi } from '../../../types/plugin.js';
import type { ShutdownReason } from '../../../types/hooks.js';
import { TOKENS } from '../../../types/tokens.js';
import type { PendingTrust } from '../../../types/trust.js';
import { initialMode, TuiController } from '../model/controller.js';
import { replay } from '../model/local-commands.js';
import { followSubagents } from '../model/subagent-activity.js';
import type { StatusInfo } from '../model/entries.js';
import { UiStore } from '../model/ui-store.js';
import type { TuiOutput } from '../tui-output.js';
import { App } from './app.js';
import { TrustDialog } from './dialogs.js';
import { describeCall } from './tool-text.js';
import { signalExitCode, STOP_SIGNALS } from '../../../sdk/stop-signals.js';

/**
 * How long a stop signal waits for the running run to end before the session closes anyway: the
 * command's own grace before SIGKILL, then the sandbox's sweep of a large tree (bounded, seconds).
 */
const STOP_GRACE_MS = 30_000;

/**
 * Ink options shared by the app and the benchmark. Ink 6.8's `incrementalRendering` would halve
 * the bytes per frame (BENCHMARKS.md) but left stale lines on a real terminal (tmux) when the
 * live region changed height, so each frame rewrites the live region whole.
 */
export const INK_OPTIONS = { exitOnCtrlC: false, patchConsole: true, incrementalRendering: false } as const;

export function initialStatus(kernel: KernelApi, options: CliOptions): StatusInfo {
  const provider = kernel.session.currentProvider();
  return {
    provider: provider.id,
    model: provider.model,
    mode: initialMode(kernel, options.permissionMode, options.permissionModeGiven),
    sandbox: 'checking',
    contextWindow: provider.contextWindow,
    contextTokens: 0,
    sessionTokens: 0,
  };
}

/** What the status line says about the OS sandbox. */
async function sandboxState(kernel: KernelApi): Promise<string> {
  if (!kernel.container.isBound(TOKENS.CommandSandbox)) return 'none';
  const status = await kernel.container.get(TOKENS.CommandSandbox).probe();
  if (status.active) return status.mechanism;
  return status.disabledByUser ? 'off (by you)' : 'unavailable';
}

/** While MCP servers connect at start-up, a progress line names them; failures become a warning. */
export async function watchMcp(kernel: KernelApi, store: UiStore): Promise<void> {
  if (!kernel.container.isBound(TOKENS.McpServers)) return;
  const servers = kernel.container.get(TOKENS.McpServers);
  const connecting = servers.status().filter((s) => s.state === 'connecting');
  if (connecting.length === 0) return;
  store.startProgress('mcp', `Connecting MCP servers: ${connecting.map((s) => s.name).join(', ')}…`);
  try {
    await servers.settled();
  } finally {
    store.endProgress('mcp');
  }
  const failed = servers.status().filter((s) => s.state === 'failed');
  if (failed.length > 0) store.notice('warning', `MCP: ${failed.map((s) => `${s.name} failed${s.lastError ? ` (${s.lastError})` : ''}`).join('; ')}. /mcp shows their status.`);
}

export function banner(kernel: KernelApi): string {
  return `MewCode ${kernel.version}  ·  ${kernel.projectRoot}\nType a prompt, / for commands, Ctrl+C twice to leave.`;
}

/** How the UI ended: the exit code, and Claude Code's SessionEnd reason (the user left, or something else ended it). */
export interface TuiEnd {
  code: number;
  endReason: ShutdownReason;
}

export async function startTui(kernel: KernelApi, options: CliOptions, output: TuiOutput): Promise<TuiEnd> {
  const store = new UiStore(initialStatus(kernel, options));
  const controller = new TuiController(kernel, store);
  store.add({ kind: 'banner', text: banner(kernel) });
  // --continue / --resume: the conversation so far, back on the screen.
  const resumed = kernel.session.conversation.messages;
  if (resumed.length > 0) {
    replay(controller, resumed);
    store.notice('notice', `Resumed session ${kernel.session.sessionId} (${resumed.length} messages).`);
  }
  output.attach(store);
  void sandboxState(kernel).then(
    (sandbox) => store.setStatus({ sandbox }),
    () => store.setStatus({ sandbox: 'unknown' }),
  );
  void watchMcp(kernel, store).catch(() => store.endProgress('mcp'));
  const runner = kernel.container.isBound(TOKENS.SubagentRunner) ? kernel.container.get(TOKENS.SubagentRunner) : undefined;
  const stopFollowing = followSubagents(runner, store, describeCall);
  const exited = new Promise<number>((resolve) => (controller.exit = resolve));
  // SIGTERM, or SIGHUP (the terminal closed): the running run is cancelled and ends as after Esc
  // (its command stopped, the sandbox's sweep done, the history saved) before the session closes.
  // Ctrl+C is the app's own key (raw mode): a SIGINT from elsewhere is handled the same way.
  let signalled = false;
  const onSignal = (signal: (typeof STOP_SIGNALS)[number]): void => {
    signalled = true;
    // A closed terminal fails the frames still being written (EIO): that must not end the process
    // before the run has.
    if (signal === 'SIGHUP') for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    void controller.stop(STOP_GRACE_MS).then(() => controller.exit(signalExitCode(signal)));
  };
  // `on`, not `once`: Ink's exit handler (signal-exit) raises the signal again, ending the process
  // at once, when it finds no other listener for it.
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const instance = render(<App controller={controller} />, INK_OPTIONS);
  try {
    // Ink also ends on its own when the UI throws (it unmounts: raw mode off, cursor shown); then
    // nobody can press Ctrl+C, so that ends the session too, with the error.
    // The user left at the prompt (/exit, Ctrl+C twice) unless a signal or the UI's own end did it.
    const ended = await Promise.race([exited.then((code): TuiEnd => ({ code, endReason: signalled ? 'other' : 'prompt_input_exit' })), instance.waitUntilExit().then((): TuiEnd => ({ code: 0, endReason: 'other' }))]);
    controller.cancel();
    instance.unmount();
    await instance.waitUntilExit();
    return ended;
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    controller.cancel();
    stopFollowing();
    output.detach();
  }
}

/** The start-up trust question, on its own before the session's screen (A12). */
export async function askTrust(pending: PendingTrust): Promise<boolean> {
  let answer!: (trusted: boolean) => void;
  const answered = new Promise<boolean>((resolve) => (answer = resolve));
  const instance = render(<TrustDialog pending={pending} onAnswer={(trusted) => answer(trusted)} />, INK_OPTIONS);
  const trusted = await answered;
  instance.unmount();
  await instance.waitUntilExit();
  process.stdout.write(trusted ? 'Trusted this project.\n' : 'Continuing without the project’s settings.\n');
  return trusted;
}
