/**
 * The hooks plugin (issue 13): user hook rules in Claude Code's settings shape, run on the
 * kernel's typed hooks, so a Claude Code user's hook scripts work unchanged — only the file is
 * MewCode's (`~/.mewcode/settings.yaml`, `.mewcode/settings.yaml`, `.mewcode/settings.local.yaml`).
 *
 * Events and their kernel hooks: PreToolUse → preToolUse (allow | ask | deny, updatedInput,
 * additionalContext; an allow never passes the blacklist, the sandbox or a deny/ask rule: the
 * kernel's gate decides that), PostToolUse → postToolUse (a block's reason is added to the
 * result), UserPromptSubmit → userPromptSubmit (block drops the prompt; stdout or
 * additionalContext goes after it), Stop / SubagentStop → stop (a block sends the agent back to
 * work once with the reason; `stop_hook_active` is then true), SubagentStart → subagentStart,
 * SessionStart → sessionStart (source startup) and sessionResume (source resume), SessionEnd →
 * sessionEnd, PreCompact → preCompact, Notification → notification.
 *
 * Project hooks run only in a trusted project; every run is logged in `.mewcode/hooks.log`;
 * a failure is shown at once and the action goes on (fail-open).
 */
import { ContainerModule } from 'inversify';
import { sessionDirectory } from '../../sdk/session-files.js';
import type { RunContext, SessionContext } from '../../types/hooks.js';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { TOKENS } from '../../types/tokens.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { HookDispatcher, type RuleResult } from './dispatcher.js';
import { claudeToolInput, claudeToolName, fromClaudeToolInput, type ClaudeEvent } from './events.js';
import { HookLog } from './hook-log.js';
import { loadHookRules } from './settings.js';

const NAME = 'hooks';

export interface HooksPluginOptions {
  /** The environment hook commands draw their few variables from (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

function transcriptPath(context: SessionContext): string {
  const dir = sessionDirectory(context.projectRoot, context.sessionId);
  return context.agentId === 'main' ? `${dir}/conversation.jsonl` : `${dir}/agents/${context.agentId}.jsonl`;
}

/** The fields every payload carries (Claude Code's names). */
function common(context: SessionContext & Partial<Pick<RunContext, 'mode'>>): Record<string, unknown> {
  return {
    session_id: context.sessionId,
    transcript_path: transcriptPath(context),
    cwd: context.projectRoot,
    ...(context.mode ? { permission_mode: context.mode } : {}),
    ...(context.agentId !== 'main' ? { agent_id: context.agentId } : {}),
  };
}

const by = (entry: RuleResult): string => `hook ${entry.rule.name}`;

function sandboxFor(kernel: KernelApi): () => Promise<CommandSandbox | undefined> {
  return async () => {
    if (!kernel.container.isBound(TOKENS.CommandSandbox)) return undefined;
    const sandbox = kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox);
    return (await sandbox.probe()).active ? sandbox : undefined;
  };
}

export function createHooksPlugin(options: HooksPluginOptions = {}): MewcodePlugin {
  const dispatchers = new Set<HookDispatcher>();
  const logs = new Set<HookLog>();
  const env = options.env ?? process.env;
  return definePlugin({
    name: NAME,
    version: '0.1.0',
    bindings: new ContainerModule(() => undefined),
    async apply(kernel) {
      const trust = kernel.container.isBound(TOKENS.WorkspaceTrust) ? kernel.container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
      const loaded = await loadHookRules(kernel.projectRoot, kernel.homeDir, trust);
      for (const warning of loaded.warnings) kernel.warn(warning);
      if (loaded.rules.length === 0) return;
      const log = new HookLog(kernel.projectRoot, (message) => kernel.warn(message));
      logs.add(log);
      const hooks = new HookDispatcher(loaded.rules, {
        projectRoot: kernel.projectRoot,
        homeDir: kernel.homeDir,
        env,
        log,
        sandbox: sandboxFor(kernel),
        warn: (message) => kernel.warn(message),
        notify: (message) => kernel.notify('notice', message),
      });
      dispatchers.add(hooks);
      tapAll(kernel, hooks);
    },
    async dispose() {
      for (const dispatcher of dispatchers) dispatcher.close();
      dispatchers.clear();
      for (const log of logs) log.close();
      logs.clear();
    },
  });
}

function tapAll(kernel: KernelApi, hooks: HookDispatcher): void {
  const listens = (event: ClaudeEvent): boolean => hooks.listens(event);

  if (listens('PreToolUse')) {
    kernel.hooks.preToolUse.tapPromise(NAME, async (decision, context) => {
      const input = decision.input;
      const results = await hooks.dispatch('PreToolUse', [claudeToolName(context.call.name), context.call.name], () => ({
        ...common(context),
        tool_name: claudeToolName(context.call.name),
        tool_input: claudeToolInput(context.call.name, input, context.projectRoot),
        tool_use_id: context.call.id,
        ...(context.tool?.hints ? { tool_hints: context.tool.hints } : {}),
      }));
      const next = { ...decision, additionalContext: [...decision.additionalContext] };
      for (const entry of results) if (entry.result.additionalContext) next.additionalContext.push(entry.result.additionalContext);
      const rewrite = results.find((entry) => entry.result.updatedInput && entry.result.permission !== 'deny');
      if (rewrite) next.input = fromClaudeToolInput(context.call.name, rewrite.result.updatedInput!, input, context.projectRoot);
      // deny > ask > allow, the first in file order giving the reason.
      const deny = results.find((entry) => entry.result.permission === 'deny' || entry.result.stop !== undefined);
      if (deny) return { ...next, decision: 'deny', reason: deny.result.reason ?? deny.result.stop ?? 'denied by a hook', by: by(deny) };
      const ask = results.find((entry) => entry.result.permission === 'ask');
      if (ask) return { ...next, decision: 'ask', reason: ask.result.reason ?? 'a hook asks for approval', by: by(ask) };
      const allow = results.find((entry) => entry.result.permission === 'allow');
      if (allow && decision.decision === undefined) return { ...next, decision: 'allow', reason: allow.result.reason ?? 'allowed by a hook', by: by(allow) };
      return next;
    });
  }

  if (listens('PostToolUse')) {
    kernel.hooks.postToolUse.tapPromise(NAME, async (result, context) => {
      const results = await hooks.dispatch('PostToolUse', [claudeToolName(context.call.name), context.call.name], () => ({
        ...common(context),
        tool_name: claudeToolName(context.call.name),
        tool_input: claudeToolInput(context.call.name, context.input, context.projectRoot),
        tool_response: { output: result.content, is_error: result.isError },
        tool_use_id: context.call.id,
        duration_ms: Math.round(context.durationMs),
      }));
      const notes = results.flatMap((entry) =>
        entry.result.kind === 'blocked' ? [`[${by(entry)}] ${entry.result.reason}`] : entry.result.additionalContext ? [`[${by(entry)}] ${entry.result.additionalContext}`] : [],
      );
      return notes.length === 0 ? result : { ...result, content: `${result.content}\n\n${notes.join('\n')}` };
    });
  }

  if (listens('UserPromptSubmit')) {
    kernel.hooks.userPromptSubmit.tapPromise(NAME, async (submission, context) => {
      // A sub-agent's prompt comes from its parent, not the user (Claude Code does not fire it either).
      if (context.parentAgentId) return submission;
      const results = await hooks.dispatch('UserPromptSubmit', [], () => ({ ...common(context), prompt: context.prompt }));
      const blocked = results.find((entry) => entry.result.kind === 'blocked' || entry.result.stop !== undefined);
      if (blocked) return { ...submission, block: { block: true, reason: blocked.result.reason ?? blocked.result.stop ?? 'blocked by a hook', by: by(blocked) } };
      const context_ = results.flatMap((entry) => (entry.result.additionalContext ? [entry.result.additionalContext] : []));
      return context_.length === 0 ? submission : { ...submission, additionalContext: [...submission.additionalContext, ...context_] };
    });
  }

  if (listens('Stop') || listens('SubagentStop')) {
    kernel.hooks.stop.tapPromise(NAME, async (context) => {
      const event: ClaudeEvent = context.parentAgentId ? 'SubagentStop' : 'Stop';
      const results = await hooks.dispatch(event, [], () => ({
        ...common(context),
        stop_hook_active: context.continuations > 0,
        last_assistant_message: context.finalText,
        stop_reason: context.reason,
      }));
      const blocked = results.find((entry) => entry.result.kind === 'blocked' && entry.result.reason);
      return blocked ? { continue: true, reason: blocked.result.reason!, by: by(blocked) } : undefined;
    });
  }

  if (listens('SubagentStart')) {
    kernel.hooks.subagentStart.tapPromise(NAME, async (context) => {
      await hooks.dispatch('SubagentStart', ['agent'], () => ({ ...common(context), prompt: context.prompt }));
    });
  }

  // Context from SessionStart goes to the main session with its next request.
  const sessionStart = async (session: SessionContext, source: 'startup' | 'resume'): Promise<void> => {
    const results = await hooks.dispatch('SessionStart', [source], () => ({ ...common(session), source }));
    for (const entry of results) if (entry.result.additionalContext && session.agentId === 'main') kernel.injectReminder(entry.result.additionalContext);
  };
  if (listens('SessionStart')) {
    kernel.hooks.sessionStart.tapPromise(NAME, (session) => sessionStart(session, 'startup'));
    kernel.hooks.sessionResume.tapPromise(NAME, (session) => sessionStart(session, 'resume'));
  }

  if (listens('SessionEnd')) {
    kernel.hooks.sessionEnd.tapPromise(NAME, async (session) => {
      await hooks.dispatch('SessionEnd', ['other'], () => ({ ...common(session), reason: 'other' }));
    });
  }

  if (listens('PreCompact')) {
    kernel.hooks.preCompact.tapPromise(NAME, async (state, context) => {
      const trigger = state.reason === 'manual' ? 'manual' : 'auto';
      await hooks.dispatch('PreCompact', [trigger], () => ({ ...common(context), trigger, custom_instructions: '' }));
    });
  }

  if (listens('Notification')) {
    kernel.hooks.notification.tapPromise(NAME, async (payload) => {
      // Our own reports (a failed hook) would otherwise start Notification hooks about themselves.
      if (/^hooks?[: ]/.test(payload.message)) return;
      const type = payload.kind === 'approval_needed' ? 'permission_prompt' : payload.kind === 'idle' ? 'idle_prompt' : payload.kind;
      await hooks.dispatch('Notification', [type], () => ({
        session_id: payload.sessionId ?? kernel.session.sessionId,
        cwd: kernel.projectRoot,
        message: payload.message,
        notification_type: type,
      }));
    });
  }
}

export default createHooksPlugin();
