/**
 * The hooks plugin: user hook rules in Claude Code's settings shape, run on the
 * kernel's typed hooks, so a Claude Code user's hook scripts work unchanged — only the file is
 * MewCode's (`~/.mewcode/settings.yaml`, `.mewcode/settings.yaml`, `.mewcode/settings.local.yaml`).
 *
 * Events and their kernel hooks: PreToolUse → preToolUse (allow | ask | deny, updatedInput,
 * additionalContext; an allow never passes the blacklist, the sandbox or a deny/ask rule: the
 * kernel's gate decides that), PermissionRequest → requestApproval (deny, or allow where a plugin
 * may answer), PostToolUse → postToolUse for a call that succeeded and PostToolUseFailure for one
 * that failed or a command that exited non-zero (a block's reason is added to the result),
 * UserPromptSubmit → userPromptSubmit (block drops the prompt; stdout or additionalContext goes
 * after it), Stop / SubagentStop → stop (a block sends the agent back to
 * work once with the reason; `stop_hook_active` is then true), SubagentStart → subagentStart,
 * SessionStart → sessionStart (source startup) and sessionResume (source resume or clear),
 * SessionEnd → sessionEnd (reason prompt_input_exit or other) and sessionResume (the session left:
 * reason clear or resume), PreCompact → preCompact, PostCompact → postCompact, PermissionDenied →
 * permissionDecided (a refusal not a hook's), StopFailure → stop (a run ended on an error),
 * PostToolBatch → preModelRequest (the request after a turn's calls), Notification → notification,
 * UserPromptExpansion → userPromptExpansion (a command the user ran expanded to a prompt; a block
 * drops it), InstructionsLoaded → TOKENS.InstructionLoads (the system-prompt plugin's loads).
 *
 * Claude Code plugins' hooks (TOKENS.ClaudePluginBundles) are the user's own (plugin-hooks.ts).
 * Project hooks run only in a trusted project; the user's own commands run in the OS sandbox
 * while the project is untrusted, or not at all where none can run (containment.ts); every run
 * is logged in `.mewcode/hooks.log`; a failure is shown at once and the action goes on (fail-open).
 */
import { stat } from 'node:fs/promises';
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { hookSettingsFiles, ruleFiles } from './files.js';
import { hooksCommand } from './hooks-command.js';
import type { ClaudePluginBundles } from '../../types/claude-plugins.js';
import { readConfigFile } from '../../config/config-file.js';
import type { ComponentHooks } from '../../types/component-hooks.js';
import { loadOnce } from '../../sdk/load-once.js';

const KERNEL_HOLDER = Symbol('hooks/kernel');
/** The code of skills', commands' and agents' own hooks, loaded at the first use. */
const loadComponentHooks = loadOnce(() => import('./component-hooks.js'));
/** The settings readers' own limit: a larger file is refused there (and so loads the hook code here). */

export interface HooksPluginOptions {
  /** The environment hook commands draw their few variables from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

/**
 * Whether any file can hold a hook, so the plugin's code loads only then. A settings file
 * counts only if its text contains `hooks` at all: permission rules alone (the common
 * settings file) load no hook code. A mere test of the text, so it can only err towards loading.
 */
async function mayHoldHooks(projectRoot: string, homeDir: string): Promise<boolean> {
  const found = await Promise.all([
    ...ruleFiles(projectRoot, homeDir).map(({ file }) => stat(file).then((info) => info.isFile(), () => false)),
    ...hookSettingsFiles(projectRoot, homeDir).map(({ file }) => {
      // Never blocks (a FIFO planted as settings.yaml once hung every start); a file that is
      // there but refused loads the hook code, whose reader says why it is ignored.
      const read = readConfigFile(file);
      return read.ok ? read.text.includes('hooks') : !read.missing;
    }),
  ]);
  return found.includes(true);
}

/** Whether a Claude Code plugin of this run has hooks (read by plugin-hooks.ts once the hook code loads). */
function hasPluginHooks(kernel: KernelApi): boolean {
  if (!kernel.container.isBound(TOKENS.ClaudePluginBundles)) return false;
  return kernel.container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list().some((bundle) => bundle.loaded && bundle.hooks.length > 0);
}

export function createHooksPlugin(options: HooksPluginOptions = {}): MewcodePlugin {
  // One plugin object may serve several kernels in a process (tests, custom builds).
  const closers = new Set<() => void>();
  const env = options.env ?? process.env;
  /**
   * TOKENS.ComponentHooks for one kernel: its code and its taps are loaded at the first skill,
   * command or agent that has hooks (the settings' own hooks need none of it).
   */
  const componentHooks = (kernelOf: () => KernelApi | undefined): ComponentHooks => {
    const startedAt = Date.now();
    let runner: Promise<import('./component-hooks.js').ComponentHookRunner> | undefined;
    const get = () =>
      (runner ??= loadComponentHooks().then(({ ComponentHookRunner }) => {
        // The kernel apply() was given: its hooks carry this plugin's name (the container's cannot tap).
        const kernel = kernelOf();
        if (!kernel) throw new Error('hooks: the hooks plugin was not applied, so a skill\'s, command\'s or agent\'s hooks cannot run');
        const made = new ComponentHookRunner(kernel, env, startedAt);
        closers.add(() => made.close());
        return made;
      }));
    const service: ComponentHooks = {
      check: async (file) => (await get()).check(file),
      activate: async (file, scope) => (await get()).activate(file, scope),
    };
    return Object.freeze(service);
  };
  return definePlugin({
    name: 'hooks',
    version: '0.1.0',
    subcommands: [
      {
        name: 'hooks',
        usage: 'hooks [--trust-project]',
        summary: 'list the hook rules of the settings files: event, matcher, command, source, trust state, and runs counted in .mewcode/hooks.log',
        run: async (context) => (await import('./hooks-subcommand.js')).listHooks(context),
      },
    ],
    bindings: new ContainerModule(({ bind }) => {
      // `/hooks` lists the rules even when no hook file exists (it says where hooks go).
      const holder: { kernel?: KernelApi } = {};
      bind(KERNEL_HOLDER).toConstantValue(holder);
      bind(TOKENS.Command).toConstantValue(hooksCommand(() => holder.kernel));
      bind(TOKENS.ComponentHooks)
        .toConstantValue(componentHooks(() => holder.kernel));
    }),
    async apply(kernel) {
      kernel.container.get<{ kernel?: KernelApi }>(KERNEL_HOLDER).kernel = kernel;
      // A run that reads no settings files (the programmatic API's default) runs no hook of them.
      if (kernel.cli?.settingSources?.length === 0) return;
      if (!hasPluginHooks(kernel) && !(await mayHoldHooks(kernel.projectRoot, kernel.homeDir))) return;
      const { applyHooks } = await import('./runtime.js');
      const close = await applyHooks(kernel, env);
      if (close) closers.add(close);
    },
    async dispose() {
      for (const close of closers) close();
      closers.clear();
    },
  });
}

export default createHooksPlugin();
