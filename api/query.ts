/**
 * `import { query } from 'mewcode'`: MewCode in-process, driven by a program. Each query boots its
 * own kernel (bin/open-run.ts, as `mewcode -p` does: configuration, plugins, the session) and
 * yields exactly the messages `--output-format stream-json` prints (sdk/stream-json, documented in
 * docs/stream-json.md): per prompt a `system` init, the run's events, and a `result`. Several
 * queries may run at once in one process: nothing of a query is process-wide (no chdir, no
 * process.env writes, no signal handlers; its plugins are its own objects).
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import { openRun } from '../bin/open-run.js';
import type { Kernel } from '../kernel/index.js';
import type { PermissionMode } from '../types/permissions.js';
import type { CliOptions } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import type { StreamMessage } from '../sdk/stream-json/messages.js';
import { runMessages } from '../sdk/stream-json/run-messages.js';
import { ApiInterface } from './api-interface.js';
import { toCliOptions, type QueryOptions } from './options.js';
import { addedPlugins, buildPlugins } from './plugins.js';
import { promptTexts, type Prompt } from './user-messages.js';

export interface Query extends AsyncGenerator<StreamMessage, void> {
  /**
   * Stop the prompt that is running: the run ends with a `result` (`stop_reason: "cancelled"`)
   * and a valid history. With streaming input the next message still runs; abort the
   * `abortController` to end the whole query.
   */
  interrupt(): Promise<void>;
}

export interface QueryParams {
  prompt: Prompt;
  options?: QueryOptions;
}

export function query({ prompt, options = {} }: QueryParams): Query {
  const aborted = options.abortController?.signal ?? new AbortController().signal;
  let turn: AbortController | undefined;
  /** interrupt() before the first prompt began: that prompt starts stopped. */
  let interruptPending = false;
  /** Once a prompt has run, an interrupt while idle (between streamed messages) stops nothing. */
  let started = false;

  const interrupt = async (): Promise<void> => {
    if (turn) turn.abort();
    else if (!started) interruptPending = true;
  };

  async function* messages(): AsyncGenerator<StreamMessage, void> {
    const cli = toCliOptions(options);
    // A missing project would boot anyway, unsaved and with warnings: said here, by name, instead.
    if (!isDirectory(cli.cwd)) throw new Error(`options.cwd is not a directory: ${cli.cwd}`);
    const env = options.env ? { ...options.env } : undefined;
    const homeDir = env?.HOME ?? os.homedir();
    const plugins = buildPlugins(env);
    const added = addedPlugins(options.plugins);
    // canUseTool is asked with the running prompt's signal (interrupt or abort stop the question).
    const ui = new ApiInterface(options.stderr, options.canUseTool, () => turn?.signal ?? aborted);
    const kernel = await openRun(cli, plugins, ui, { homeDir, ...(env ? { env } : {}), ...(added ? { added } : {}) });
    try {
      const mode = startingMode(kernel, cli);
      for await (const text of promptTexts(prompt)) {
        // Aborted before any prompt ran: the first one starts stopped, as after interrupt() (a
        // system message and a cancelled result, nothing sent); none after it runs.
        if (aborted.aborted && started) break;
        const controller = new AbortController();
        turn = controller;
        started = true;
        const stop = (): void => controller.abort();
        aborted.addEventListener('abort', stop, { once: true });
        if (interruptPending || aborted.aborted) controller.abort();
        interruptPending = false;
        let running: AsyncIterator<StreamMessage> | undefined;
        try {
          running = runMessages(kernel, { prompt: text, mode, cwd: cli.cwd, signal: controller.signal, ...(cli.maxTurns !== undefined ? { maxTurns: cli.maxTurns } : {}) })[Symbol.asyncIterator]();
          for (;;) {
            const next = await running.next();
            if (next.done) break;
            yield next.value;
          }
          running = undefined;
        } finally {
          // The caller stopped iterating mid-prompt (break, return, a throw): stop the run and let
          // it end (its history valid) before the kernel shuts down.
          if (running) {
            controller.abort();
            await drain(running);
          }
          aborted.removeEventListener('abort', stop);
          turn = undefined;
        }
      }
    } finally {
      await kernel.shutdown();
    }
  }

  const generator = messages();
  return Object.assign(generator, { interrupt });
}

/** --permission-mode's rule: the option when given, else the settings' default_mode, else default. */
function startingMode(kernel: Kernel, cli: CliOptions): PermissionMode {
  if (cli.permissionModeGiven || !kernel.container.isBound(TOKENS.PermissionSettings)) return cli.permissionMode;
  return kernel.container.get(TOKENS.PermissionSettings).defaultMode() ?? cli.permissionMode;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

async function drain(iterator: AsyncIterator<unknown>): Promise<void> {
  try {
    for (;;) if ((await iterator.next()).done) return;
  } catch {
    // the run's own failure was the caller's to see; it stopped listening
  }
}
