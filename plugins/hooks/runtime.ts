/**
 * What the hooks plugin loads once a settings or rule file exists (index.ts stays small at
 * boot): reading the rules, the two engines, and the taps on the kernel's hooks.
 */
import type { RunContext, SessionContext } from '../../types/hooks.js';
import type { KernelApi } from '../../types/plugin.js';
import type { PermissionRuleMatcher, RuleSubject } from '../../types/services.js';
import type { CommandSandbox } from '../../types/sandbox.js';
import { TOKENS } from '../../types/tokens.js';
import { agentTypeNames, claudeAgentType } from '../../types/subagents.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { compileConditions } from './conditions.js';
import { HookDispatcher, type DispatcherDeps, type RuleResult } from './dispatcher.js';
import { claudeToolInput, claudeToolName, fromClaudeToolInput, ownToolInput, toolNameAliases, UnknownInputField, type ClaudeEvent } from './events.js';
import { HookLog } from './hook-log.js';
import { loadHookRules, type HookRule } from './settings.js';
import { loadPluginHooks } from './plugin-hooks.js';
import { loadRuleFiles, type MewcodeEvent } from './rule-file.js';
import { RuleEngine } from './rule-engine.js';
import { SessionStartContext, type SessionStartSource } from './session-context.js';
import { UntrustedHooks } from './containment.js';
import { commandCodeChangedSince } from '../../config/trust-code.js';
import { SessionEnvFile } from './env-file.js';
import { callFailure, toolResponse } from './tool-response.js';
import { HookModes } from './hook-mode.js';
import { ClaudeTranscripts } from './claude-transcript.js';
import { Deferrals } from './defer.js';
import { compactSummary, deniedReason, failureMessage, finishedBatch } from './new-events.js';

const NAME = 'hooks';

/**
 * The fields every payload carries (Claude Code's names): `permission_mode` on every event
 * (hook-mode.ts); `transcript_path` the main session's transcript in Claude Code's shape, brought
 * up to date first (claude-transcript.ts), and inside a sub-agent also its own
 * (`agent_transcript_path`), as Claude Code gives them. `agent_type` is Claude Code's spelling
 * of a type it has too (`Explore`, `general-purpose`), so a script written for it compares as there.
 */
function commonFields(context: SessionContext & Partial<Pick<RunContext, 'mode'>>, modes: HookModes, transcripts: ClaudeTranscripts): Record<string, unknown> {
  const sub = context.agentId !== 'main';
  return {
    session_id: context.sessionId,
    transcript_path: transcripts.path({ ...context, agentId: 'main' }),
    cwd: context.projectRoot,
    permission_mode: modes.of(context),
    ...(sub ? { agent_id: context.agentId, agent_transcript_path: transcripts.path(context) } : {}),
    ...(context.agentType ? { agent_type: claudeAgentType(context.agentType) } : {}),
  };
}

/** What a SubagentStart / SubagentStop matcher is tested against: the sub-agent's type, as in Claude Code. */
const agentTypeSubjects = (context: SessionContext): string[] => agentTypeNames(context.agentType ?? 'general');

/**
 * An agent hook's verifier is the hook's own work, not the user's sub-agent: no SubagentStart or
 * SubagentStop for it. One set per kernel, shared by the settings' and the components' dispatchers.
 */
const verifierAgentsByKernel = new WeakMap<KernelApi, Set<string>>();
function verifierAgentsOf(kernel: KernelApi): Set<string> {
  let agents = verifierAgentsByKernel.get(kernel);
  if (agents === undefined) verifierAgentsByKernel.set(kernel, (agents = new Set()));
  return agents;
}

/** Who decided: the gate shows a PreToolUse deny as `[hook <by>]`; prompts and stops say `hook <by>` themselves. */
const by = (entry: RuleResult): string => entry.rule.name;
const byHook = (entry: RuleResult): string => `hook ${entry.rule.name}`;

function sandboxFor(kernel: KernelApi): () => Promise<CommandSandbox | undefined> {
  return async () => {
    if (!kernel.container.isBound(TOKENS.CommandSandbox)) return undefined;
    const sandbox = kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox);
    return (await sandbox.probe()).active ? sandbox : undefined;
  };
}

/** Why no OS sandbox contains commands, for the untrusted project's notice. */
function sandboxReason(kernel: KernelApi): string {
  if (!kernel.container.isBound(TOKENS.CommandSandbox)) return 'this build has no command sandbox';
  const status = kernel.container.get<CommandSandbox>(TOKENS.CommandSandbox).status();
  return status.reason ?? (status.disabledByUser ? 'turned off in your settings' : 'not active');
}

/** What both dispatchers share: the log, the sandbox, the sub-agent runner, the untrusted project's containment. */
function dispatcherDeps(kernel: KernelApi, env: NodeJS.ProcessEnv, trust: WorkspaceTrust | undefined, log: HookLog, sessionStartedAt: number): DispatcherDeps {
  const sandbox = sandboxFor(kernel);
  const notify = (message: string): void => kernel.notify('notice', message);
  return {
    projectRoot: kernel.projectRoot,
    homeDir: kernel.homeDir,
    env,
    log,
    sandbox,
    warn: (message: string) => kernel.warn(message),
    notify,
    // Resolved when an action runs: the runner is another plugin's, bound or not.
    subagents: () => (kernel.container.isBound(TOKENS.SubagentRunner) ? kernel.container.get(TOKENS.SubagentRunner) : undefined),
    hookAgents: new Set<string>(),
    verifierAgents: verifierAgentsOf(kernel),
    // No trust service (a custom build, a test kernel) is untrusted, as for the project's settings.
    // Read when a hook runs: under a managed-forced sandbox every command hook runs in it or not at all.
    sandboxForcedBy: () => (kernel.container.isBound(TOKENS.ManagedPolicy) ? kernel.container.get(TOKENS.ManagedPolicy).sandbox.forceEnabled?.where : undefined),
    untrusted: new UntrustedHooks({
      trusted: () => trust?.isTrusted() === true,
      sandbox,
      sandboxReason: () => sandboxReason(kernel),
      notify,
      codeChanged: (hook) => commandCodeChangedSince(hook, kernel.projectRoot, sessionStartedAt, kernel.homeDir),
    }),
  };
}

/** Read the rules and tap the kernel's hooks; returns how to close everything (undefined: no rules). */
export async function applyHooks(kernel: KernelApi, env: NodeJS.ProcessEnv): Promise<(() => void) | undefined> {
  // Project code changed after this moment was not what the user trusted (containment.ts).
  const sessionStartedAt = Date.now();
  const trust = kernel.container.isBound(TOKENS.WorkspaceTrust) ? kernel.container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
  const [settings, files] = await Promise.all([loadHookRules(kernel.projectRoot, kernel.homeDir, trust), loadRuleFiles(kernel.projectRoot, kernel.homeDir, trust)]);
  const plugins = loadPluginHooks(kernel);
  settings.rules.push(...plugins.rules);
  for (const warning of [...files.warnings, ...settings.warnings, ...plugins.warnings]) kernel.warn(warning);
  if (settings.rules.length === 0 && files.rules.length === 0) return undefined;
  const log = new HookLog(kernel.projectRoot, (message) => kernel.warn(message));
  const deps = dispatcherDeps(kernel, env, trust, log, sessionStartedAt);
  // A handler's `if` is compiled by the permission rules' matcher; one that is not a rule is skipped.
  const conditioned = await compileConditions(kernel, settings.rules, (message) => kernel.warn(message));
  const claude = new HookDispatcher(conditioned.rules, deps, conditioned.conditions);
  const own = new RuleEngine(files.rules, deps);
  const envFiles = new SessionEnvFile();
  const untap = tapAll(kernel, claude, own, envFiles);
  return () => {
    untap();
    envFiles.close();
    claude.close();
    own.close();
    log.close();
  };
}

/**
 * The dispatcher of skills', commands' and agents' own hooks (component-hooks.ts): its rules come
 * and go while the session runs, so it is tapped on every event (a rule matching nothing costs a
 * filter); its taps are made at the first activation, in a session that uses such hooks only.
 */
class ComponentDispatcher extends HookDispatcher {
  override listens(): boolean {
    return true;
  }
  override listensAny(): boolean {
    return true;
  }
}

/** The rules a component adds (and removes when it ends), their `if` matchers, and how to close. */
export interface ComponentRules {
  rules: HookRule[];
  conditions: Map<HookRule, PermissionRuleMatcher>;
  close(): void;
}

export function applyComponentHooks(kernel: KernelApi, env: NodeJS.ProcessEnv, startedAt: number): ComponentRules {
  const trust = kernel.container.isBound(TOKENS.WorkspaceTrust) ? kernel.container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
  const log = new HookLog(kernel.projectRoot, (message) => kernel.warn(message));
  const deps = dispatcherDeps(kernel, env, trust, log, startedAt);
  const rules: HookRule[] = [];
  const conditions = new Map<HookRule, PermissionRuleMatcher>();
  const dispatcher = new ComponentDispatcher(rules, deps, conditions);
  const own = new RuleEngine([], deps);
  const envFiles = new SessionEnvFile();
  tapAll(kernel, dispatcher, own, envFiles);
  return {
    rules,
    conditions,
    close: () => {
      envFiles.close();
      dispatcher.close();
      own.close();
      log.close();
    },
  };
}

/** MewCode's payload (H4): `event` is added by the engine. */
function own(context: SessionContext & Partial<Pick<RunContext, 'mode'>>): Record<string, unknown> {
  return { session_id: context.sessionId, cwd: context.projectRoot, ...(context.mode ? { mode: context.mode } : {}), ...(context.agentId !== 'main' ? { agent_id: context.agentId } : {}) };
}

/** Returns how to stop listening to other plugins' services. */
function tapAll(kernel: KernelApi, hooks: HookDispatcher, rules: RuleEngine, envFiles: SessionEnvFile): () => void {
  const stops: (() => void)[] = [];
  // The mode is spelled as Claude Code spells it: a default-mode run under dontAsk is `dontAsk`.
  const modes = new HookModes(kernel);
  const transcripts = new ClaudeTranscripts(kernel, (message) => kernel.warn(message));
  if (hooks.listensAny()) {
    kernel.hooks.messageAppended.tapPromise(NAME, async (message, context) => transcripts.appended(message, context));
    // The boundary is written when the compaction happens, with its trigger: a later process could only guess it.
    kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => transcripts.compacted({ trigger: state.reason === 'manual' ? 'manual' : 'auto', preTokens: state.estimatedTokens }, context));
  }
  const common = (context: SessionContext & Partial<Pick<RunContext, 'mode'>>): Record<string, unknown> => commonFields(context, modes, transcripts);
  const listens = (event: ClaudeEvent, ownEvent: MewcodeEvent = event as MewcodeEvent): boolean => hooks.listens(event) || rules.listens(ownEvent);
  /** Both sources at once; MewCode's rule files first, then the settings files (file order). */
  const both = async (
    event: ClaudeEvent | undefined,
    ownEvent: MewcodeEvent,
    subjects: readonly string[],
    claudePayload: () => Record<string, unknown>,
    context: SessionContext,
    ownPayload: () => Record<string, unknown>,
    call?: RuleSubject,
    envFile?: string,
  ): Promise<RuleResult[]> => {
    const [first, second] = await Promise.all([rules.dispatch(ownEvent, context.sessionId, ownPayload), event ? hooks.dispatch(event, subjects, claudePayload, call, envFile, context) : Promise.resolve([])]);
    return [...first, ...second];
  };

  if (listens('PreToolUse')) {
    const deferrals = new Deferrals(kernel);
    kernel.hooks.preToolUse.tapPromise(NAME, async (decision, context) => {
      const input = decision.input;
      const results = await both('PreToolUse', 'PreToolUse', toolNameAliases(context.call.name), () => ({
        ...common(context),
        tool_name: claudeToolName(context.call.name),
        tool_input: claudeToolInput(context.call.name, input, context.projectRoot, context.homeDir),
        tool_use_id: context.call.id,
        ...(context.tool?.hints ? { tool_hints: context.tool.hints } : {}),
      }), context, () => ({ ...own(context), tool_name: context.call.name, tool_input: ownToolInput(context.call.name, input, context.projectRoot, context.homeDir), iteration: context.iteration }), { toolName: context.call.name, tool: context.tool, input, projectRoot: context.projectRoot });
      const next = { ...decision, additionalContext: [...decision.additionalContext] };
      for (const entry of results) if (entry.result.additionalContext) next.additionalContext.push(entry.result.additionalContext);
      const rewrite = results.find((entry) => entry.result.updatedInput && entry.result.permission !== 'deny');
      if (rewrite) {
        try {
          next.input = fromClaudeToolInput(context.call.name, rewrite.result.updatedInput!, input, context.projectRoot, context.homeDir);
        } catch (error) {
          if (!(error instanceof UnknownInputField)) throw error;
          // Run as if not asked, the call would escape what the hook meant: refused, and the user told.
          const reason = `${error.message}; the call was not run`;
          kernel.warn(`hooks: hook ${by(rewrite)}: ${reason}`);
          return { ...next, decision: 'deny', reason, by: by(rewrite) };
        }
      }
      // `continue: false` overrides every decision (Claude Code): the call does not run and the run
      // ends after this batch of calls; the stopReason is the user's, the model is told only who.
      const stopped = results.find((entry) => entry.result.stop !== undefined);
      if (stopped) return { ...next, decision: 'deny', reason: 'not run: the hook stopped the run', by: by(stopped), stopRun: { reason: stopped.result.stop!, by: byHook(stopped) } };
      // deny > defer > ask > allow, the first in file order giving the reason.
      const deny = results.find((entry) => entry.result.permission === 'deny');
      if (deny) return { ...next, decision: 'deny', reason: deny.result.reason ?? deny.result.stop ?? 'denied by a hook', by: by(deny) };
      const deferred = results.find((entry) => entry.result.permission === 'defer');
      if (deferred) {
        for (const entry of results) if (entry.result.permission === 'defer') deferrals.warn(entry.rule.name);
        // A person can be asked: the deferred call is their question. Elsewhere the permission
        // mode's own flow decides, no hook's allow taken (defer outranks it); an ask still stands.
        if (deferrals.canAsk()) return { ...next, decision: 'ask', reason: deferred.result.reason ?? 'a hook deferred the call', by: by(deferred) };
      }
      const ask = results.find((entry) => entry.result.permission === 'ask');
      if (ask) return { ...next, decision: 'ask', reason: ask.result.reason ?? 'a hook asks for approval', by: by(ask) };
      const allow = deferred ? undefined : results.find((entry) => entry.result.permission === 'allow');
      if (allow && decision.decision === undefined) return { ...next, decision: 'allow', reason: allow.result.reason ?? 'allowed by a hook', by: by(allow) };
      return next;
    });
  }

  if (hooks.listens('PermissionRequest')) {
    // Claude Code runs PermissionRequest where it would ask the user (after dontAsk's refusal, at
    // its earlier stage). Its allow answers only a question a plugin may answer (the mode's): a
    // rule's, a protected path's or a PreToolUse hook's question stays the user's. A deny always holds.
    kernel.hooks.requestApproval.tapPromise(NAME, async (request) => {
      const context: SessionContext & Pick<RunContext, 'mode'> = { sessionId: request.sessionId, agentId: request.agentId ?? 'main', ...(request.parentAgentId ? { parentAgentId: request.parentAgentId } : {}), projectRoot: request.projectRoot, homeDir: kernel.homeDir, mode: request.mode };
      const results = await hooks.dispatch('PermissionRequest', toolNameAliases(request.toolName), () => ({
        ...common(context),
        tool_name: claudeToolName(request.toolName),
        tool_input: claudeToolInput(request.toolName, request.input, request.projectRoot, kernel.homeDir),
        tool_use_id: request.toolCallId,
        permission_suggestions: [],
      }), { toolName: request.toolName, tool: request.tool, input: request.input, projectRoot: request.projectRoot }, undefined, context);
      const deny = results.find((entry) => entry.result.permission === 'deny');
      if (deny) {
        const stop = deny.result.stop === undefined ? {} : { stopRun: { reason: deny.result.stop, by: byHook(deny) } };
        return { choice: 'deny', answeredBy: byHook(deny), reason: deny.result.reason ?? 'denied by a hook', ...stop };
      }
      const allow = results.find((entry) => entry.result.permission === 'allow');
      // An allow with other arguments is no answer (the kernel takes a plugin's allow only for the
      // arguments asked about): the user is asked, never the original call run instead.
      if (!allow || !request.pluginsMayAllow || allow.result.updatedInput !== undefined) return undefined;
      return { choice: 'allow_once', answeredBy: byHook(allow) };
    });
  }

  if (listens('PostToolUse') || hooks.listens('PostToolUseFailure')) {
    // After the policies (an organisation's DLP runs at 900–999) and before the recorders (the
    // audit at 1000): the hooks — a command, an http endpoint, an agent hook's sub-agent and so
    // its model provider — are sent only what the policies let out, and what they add passes
    // the required plugins' taps again before it joins the output.
    kernel.hooks.postToolUse.tapPromise({ name: NAME, stage: 999.5 }, async (result, context) => {
      // Claude Code sends a call that failed (an error result: the tool's own, a timeout, a
      // cancel) to PostToolUseFailure, never to PostToolUse. MewCode's rule files keep one
      // PostToolUse event with `is_error`.
      // A command that exited non-zero is a failure too (tool-response.ts).
      const error = callFailure(result, context);
      const toolInput = claudeToolInput(context.call.name, context.input, context.projectRoot, context.homeDir);
      const call = (): Record<string, unknown> => ({ ...common(context), tool_name: claudeToolName(context.call.name), tool_input: toolInput, tool_use_id: context.call.id });
      const claudePayload = error !== undefined
        ? () => ({ ...call(), error, is_interrupt: context.interrupted === true, duration_ms: Math.round(context.durationMs) })
        : () => ({ ...call(), tool_response: toolResponse(context.call.name, toolInput, result, context.durationMs, context.streams), duration_ms: Math.round(context.durationMs) });
      const results = await both(error !== undefined ? 'PostToolUseFailure' : 'PostToolUse', 'PostToolUse', toolNameAliases(context.call.name), claudePayload, context, () => ({ ...own(context), tool_name: context.call.name, tool_input: ownToolInput(context.call.name, context.input, context.projectRoot, context.homeDir), tool_result: result.content, is_error: result.isError, iteration: context.iteration }), { toolName: context.call.name, tool: context.tool, input: context.input, projectRoot: context.projectRoot });
      const notes = results.flatMap((entry) =>
        entry.result.kind === 'blocked' ? [`[${byHook(entry)}] ${entry.result.reason}`] : entry.result.additionalContext ? [`[${byHook(entry)}] ${entry.result.additionalContext}`] : [],
      );
      // `continue: false`: the run ends after this batch of calls, the stopReason told to the user only.
      const stopped = results.find((entry) => entry.result.stop !== undefined);
      const stop = stopped ? { stopRun: { reason: stopped.result.stop!, by: byHook(stopped) } } : {};
      // `updatedToolOutput` (PostToolUse only; the first in file order): what the model reads in
      // place of the output. The result keeps its call's id, so history stays paired; the hook's
      // text passes the required plugins as its notes do, and the images go with the old output.
      const replaced = results.find((entry) => entry.result.updatedToolOutput !== undefined);
      if (replaced) {
        const text = [replaced.result.updatedToolOutput!, ...notes].join('\n\n');
        const { images: _images, ...rest } = result;
        const passed = kernel.requiredPostToolUse
          ? await kernel.requiredPostToolUse({ ...rest, content: text, isError: false }, context)
          : { content: 'Output withheld: the hook\'s replacement of the output could not pass the required plugins.' };
        return { ...rest, content: passed.content, ...stop };
      }
      if (notes.length === 0) return { ...result, ...stop };
      // A policy that fails on the notes withholds them (its notice stands in their place), not the output.
      const added = kernel.requiredPostToolUse
        ? await kernel.requiredPostToolUse({ ...result, content: notes.join('\n'), isError: false }, context)
        : { content: 'Output withheld: the hooks\' notes could not pass the required plugins.' };
      return { ...result, content: `${result.content}\n\n${added.content}`, ...stop };
    });
  }

  if (listens('UserPromptSubmit')) {
    kernel.hooks.userPromptSubmit.tapPromise(NAME, async (submission, context) => {
      // A sub-agent's prompt comes from its parent, not the user (Claude Code does not fire it either).
      if (context.parentAgentId) return submission;
      const results = await both('UserPromptSubmit', 'UserPromptSubmit', [], () => ({ ...common(context), prompt: context.prompt }), context, () => ({ ...own(context), prompt: context.prompt }));
      const blocked = results.find((entry) => entry.result.kind === 'blocked' || entry.result.stop !== undefined);
      if (blocked) return { ...submission, block: { block: true, reason: blocked.result.reason ?? blocked.result.stop ?? 'blocked by a hook', by: byHook(blocked) } };
      const context_ = results.flatMap((entry) => (entry.result.additionalContext ? [entry.result.additionalContext] : []));
      return context_.length === 0 ? submission : { ...submission, additionalContext: [...submission.additionalContext, ...context_] };
    });
  }

  if (listens('Stop') || listens('SubagentStop')) {
    kernel.hooks.stop.tapPromise(NAME, async (context) => {
      // Claude Code's Stop is the agent finishing its answer: not a cancel, an error or a blocked prompt.
      if (context.reason !== 'completed' || verifierAgentsOf(kernel).has(context.agentId)) return undefined;
      const event: ClaudeEvent = context.parentAgentId ? 'SubagentStop' : 'Stop';
      const results = await both(event, event, context.parentAgentId ? agentTypeSubjects(context) : [], () => ({
        ...common(context),
        stop_hook_active: context.continuations > 0,
        last_assistant_message: context.finalText,
        stop_reason: context.reason,
      }), context, () => ({ ...own(context), reason: context.reason, final_text: context.finalText }));
      remind(results);
      // `continue: false` wins over any block: the agent stops, and the user is told why.
      const stopped = results.find((entry) => entry.result.stop !== undefined);
      if (stopped) {
        kernel.notify('notice', `hook ${stopped.rule.name}: ${stopped.result.stop}`);
        return undefined;
      }
      const blocked = results.find((entry) => entry.result.kind === 'blocked' && entry.result.reason);
      return blocked ? { continue: true, reason: blocked.result.reason!, by: byHook(blocked) } : undefined;
    });
  }

  /** A prompt or subagent action's text on an event that has no place for it reaches the main session's next request. */
  const remindsMain = (entry: RuleResult): boolean => entry.result.exit === 'prompt' || entry.result.exit === 'subagent';
  const remind = (results: readonly RuleResult[]): void => {
    for (const entry of results) if (entry.result.additionalContext && remindsMain(entry)) kernel.injectReminder(entry.result.additionalContext);
  };

  if (listens('SubagentStart')) {
    // A hook's additionalContext joins the sub-agent's context, as in Claude Code: kept by the
    // sub-agent's id until its prompt is submitted (right after SubagentStart), then added to it.
    const forSubagent = new Map<string, string[]>();
    kernel.hooks.subagentStart.tapPromise(NAME, async (context) => {
      if (verifierAgentsOf(kernel).has(context.agentId)) return;
      const results = await both('SubagentStart', 'SubagentStart', agentTypeSubjects(context), () => ({ ...common(context), prompt: context.prompt }), context, () => ({ ...own(context), prompt: context.prompt }));
      remind(results);
      const texts = results.flatMap((entry) => (entry.result.additionalContext && !remindsMain(entry) ? [entry.result.additionalContext] : []));
      if (texts.length > 0) forSubagent.set(context.agentId, texts);
    });
    kernel.hooks.userPromptSubmit.tapPromise({ name: NAME, stage: 100 }, async (submission, context) => {
      const texts = forSubagent.get(context.agentId);
      if (!context.parentAgentId || texts === undefined || submission.block) return submission;
      forSubagent.delete(context.agentId);
      return { ...submission, additionalContext: [...texts, ...submission.additionalContext] };
    });
  }

  if (rules.listens('PreUserMessage')) {
    // Before every model request: a prompt action's text joins this request's reminder.
    kernel.hooks.preModelRequest.tapPromise(NAME, async (request, context) => {
      // A compaction summary or an MCP server's sampling request is not the user's turn.
      if (context.reason !== undefined) return request;
      const results = await rules.dispatch('PreUserMessage', context.sessionId, () => ({ ...own(context), iteration: context.iteration }));
      const texts = results.flatMap((entry) => (entry.result.additionalContext ? [entry.result.additionalContext] : []));
      return texts.length === 0 ? request : { ...request, reminder: [request.reminder, ...texts].filter(Boolean).join('\n\n') };
    });
  }

  if (listens('PostCompact')) {
    // Claude Code's PostCompact: after the summary replaced the history, its matcher the trigger.
    // No decision: it is told, and a prompt or agent action's text reaches the next request.
    kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => {
      const trigger = state.reason === 'manual' ? 'manual' : 'auto';
      const summary = compactSummary(state.history);
      remind(await both('PostCompact', 'PostCompact', [trigger], () => ({ ...common(context), trigger, ...(summary !== undefined ? { compact_summary: summary } : {}) }), context, () => ({ ...own(context), trigger, before_tokens: state.estimatedTokens, after_tokens: state.tokensAfter })));
    });
  }

  if (hooks.listens('PermissionDenied')) {
    // A call a rule, the mode, the path sandbox or the user refused (not a hook's own deny). It is
    // told only: the call stays refused, and Claude Code's `retry` is not read.
    kernel.hooks.permissionDecided.tapPromise(NAME, async (decided) => {
      const reason = deniedReason(decided);
      if (reason === undefined) return;
      const request = decided.request;
      const context: SessionContext & Pick<RunContext, 'mode'> = { sessionId: request.sessionId, agentId: request.agentId ?? 'main', ...(request.parentAgentId ? { parentAgentId: request.parentAgentId } : {}), projectRoot: request.projectRoot, homeDir: kernel.homeDir, mode: request.mode };
      remind(await hooks.dispatch('PermissionDenied', toolNameAliases(request.toolName), () => ({
        ...common(context),
        tool_name: claudeToolName(request.toolName),
        tool_input: claudeToolInput(request.toolName, request.input, request.projectRoot, kernel.homeDir),
        tool_use_id: decided.toolCallId,
        reason,
      }), { toolName: request.toolName, tool: request.tool, input: request.input, projectRoot: request.projectRoot }, undefined, context));
    });
  }

  if (hooks.listens('StopFailure')) {
    // The main agent's run ended on an error (a failed model request, a refused one): Claude Code's
    // StopFailure, in place of Stop. Nothing it says changes the end.
    kernel.hooks.stop.tapPromise(NAME, async (context) => {
      if (context.reason !== 'error' || context.parentAgentId) return undefined;
      remind(await hooks.dispatch('StopFailure', [], () => ({ ...common(context), error: failureMessage(context.finalText), last_assistant_message: context.finalText }), undefined, undefined, context));
      return undefined;
    });
  }

  if (hooks.listens('PostToolBatch')) {
    // Every call of one model turn finished: the next request's history ends with their results.
    // Runs once per batch (a request sent again, as after an emergency compaction, is the same
    // batch); a block's reason and additionalContext go to the model with the results, in that
    // request's reminder. A batch that ended the run has no next request and runs no hook.
    const lastBatch = new Map<string, string>();
    kernel.hooks.preModelRequest.tapPromise(NAME, async (request, context) => {
      if (context.reason !== undefined) return request;
      const batch = finishedBatch(request.messages, context.projectRoot, context.homeDir);
      if (!batch || lastBatch.get(`${context.sessionId}/${context.agentId}`) === batch.key) return request;
      lastBatch.set(`${context.sessionId}/${context.agentId}`, batch.key);
      const results = await hooks.dispatch('PostToolBatch', [], () => ({ ...common(context), tool_calls: batch.calls }), undefined, undefined, context);
      remind(results);
      const texts = results.flatMap((entry) =>
        entry.result.kind === 'blocked' && entry.result.reason ? [`[${byHook(entry)}] ${entry.result.reason}`] : entry.result.additionalContext && !remindsMain(entry) ? [`[${byHook(entry)}] ${entry.result.additionalContext}`] : [],
      );
      return texts.length === 0 ? request : { ...request, reminder: [request.reminder, ...texts].filter(Boolean).join('\n\n') };
    });
  }

  /** A resumed main session: `/clear` continues with a fresh, empty conversation, a new session to the hooks. */
  const resumeSource = (session: SessionContext): 'clear' | 'resume' =>
    kernel.session.sessionId === session.sessionId && kernel.session.conversation.messages.length === 0 ? 'clear' : 'resume';

  // SessionEnd, with Claude Code's reason: the kernel's end (`prompt_input_exit` when the user
  // left the terminal UI, else `other`), and the session left by a switch of the main session —
  // `clear` for /clear, `resume` for /resume of another one — before the new one's SessionStart.
  if (listens('SessionEnd')) {
    const sessionEnd = (session: SessionContext, reason: string): Promise<RuleResult[]> =>
      both('SessionEnd', 'SessionEnd', [reason], () => ({ ...common(session), reason }), session, () => ({ ...own(session), reason }));
    let current: SessionContext | undefined;
    kernel.hooks.sessionStart.tapPromise(NAME, async (session) => {
      if (session.agentId === 'main') current = session;
    });
    kernel.hooks.sessionResume.tapPromise(NAME, async (session) => {
      if (session.agentId !== 'main') return;
      const left = current;
      current = session;
      // At start-up (--continue) no session was running yet; resuming the running one ends nothing.
      if (left !== undefined && left.sessionId !== session.sessionId) await sessionEnd(left, resumeSource(session));
    });
    kernel.hooks.sessionEnd.tapPromise(NAME, async (session) => {
      await sessionEnd(session, session.reason ?? 'other'); // nothing can follow it
    });
  }

  /** SessionStart's optional `model` (Claude Code's): the model the session's requests go to. */
  const sessionModel = (session: SessionContext): { model?: string } => {
    try {
      return kernel.session.sessionId === session.sessionId ? { model: kernel.session.currentProvider().model } : {};
    } catch {
      return {}; // no usable provider yet: the field is optional
    }
  };

  // SessionStart, as Claude Code runs it: once per start of the main session, with the source
  // that started it, and its context kept for the whole session (session-context.ts).
  const started = new SessionStartContext();
  const sessionStart = async (session: SessionContext, source: Exclude<SessionStartSource, 'compact'>): Promise<string[]> => {
    // Claude Code's CLAUDE_ENV_FILE: what the hooks export there applies to later bash commands.
    const environment = kernel.container.isBound(TOKENS.CommandEnvironment) ? kernel.container.get(TOKENS.CommandEnvironment) : undefined;
    const envFile = environment && hooks.listens('SessionStart') ? envFiles.path() : undefined;
    const results = await both('SessionStart', source === 'resume' ? 'SessionResume' : 'SessionStart', [source], () => ({ ...common(session), source, ...sessionModel(session) }), session, () => own(session), undefined, envFile);
    if (environment && envFile) {
      const { variables, skipped } = envFiles.take();
      environment.set(variables);
      if (skipped.length > 0) kernel.warn(`hooks: CLAUDE_ENV_FILE: skipped ${skipped.length} line(s) that are not \`export NAME=value\` with a plain value (nothing is expanded), e.g. ${JSON.stringify(skipped[0])}`);
    }
    return results.flatMap((entry) => (entry.result.additionalContext ? [entry.result.additionalContext] : []));
  };
  if (listens('SessionStart') || rules.listens('SessionResume')) {
    kernel.hooks.sessionStart.tapPromise(NAME, async (session) => {
      // The UI starts the main session after a resume too: that start is the resume, already run.
      if (session.agentId !== 'main' || started.resumed(session.sessionId)) return;
      started.keep(session.sessionId, await sessionStart(session, 'startup'));
    });
    kernel.hooks.sessionResume.tapPromise(NAME, async (session) => {
      if (session.agentId !== 'main') return;
      started.markResumed(session.sessionId);
      started.keep(session.sessionId, await sessionStart(session, resumeSource(session)));
    });
    // Kept in history by joining the next prompt of the session (saved with it, so a continued
    // session still has it); the stable system prompt never changes.
    kernel.hooks.userPromptSubmit.tapPromise({ name: NAME, stage: 100 }, async (submission, context) => {
      if (context.agentId !== 'main' || submission.block) return submission;
      const texts = started.take(context.sessionId);
      return texts.length === 0 ? submission : { ...submission, additionalContext: [...texts, ...submission.additionalContext] };
    });
    if (hooks.listens('SessionStart')) {
      // The summary replaced the history that held the context: Claude Code runs SessionStart
      // again with source "compact", and what it returns stands after the summary.
      kernel.hooks.postCompact.tapPromise(NAME, async (state, context) => {
        if (context.agentId !== 'main') return;
        const texts = (await hooks.dispatch('SessionStart', ['compact'], () => ({ ...common(context), source: 'compact', ...sessionModel(context) }), undefined, undefined, context)).flatMap((entry) => (entry.result.additionalContext ? [entry.result.additionalContext] : []));
        if (texts.length > 0) (state.reinject ??= []).push(...texts);
      });
    }
  }

  if (listens('PreCompact')) {
    kernel.hooks.preCompact.tapPromise(NAME, async (state, context) => {
      const trigger = state.reason === 'manual' ? 'manual' : 'auto';
      const results = await both('PreCompact', 'PreCompact', [trigger], () => ({ ...common(context), trigger, custom_instructions: state.focus ?? '' }), context, () => ({ ...own(context), trigger, before_tokens: state.estimatedTokens }));
      remind(results);
      // Exit 2, `decision: "block"` or `continue: false` blocks it (Claude Code): the kernel stops a
      // compaction the user asked for, and only warns on an automatic one (the context must shrink).
      const blocked = results.find((entry) => entry.result.kind === 'blocked' || entry.result.stop !== undefined);
      return blocked ? { block: true, reason: blocked.result.reason ?? blocked.result.stop ?? 'blocked by a hook', by: byHook(blocked) } : undefined;
    });
  }

  if (hooks.listens('UserPromptExpansion')) {
    // A command the user ran expanded to a prompt (kernel/command-expansion.ts); the matcher is the
    // command's name. Exit 2, `decision: "block"` or `continue: false` drops the expansion, the
    // reason shown to the user; stdout or additionalContext goes after the prompt.
    kernel.hooks.userPromptExpansion.tapPromise(NAME, async (context) => {
      const results = await hooks.dispatch('UserPromptExpansion', [context.command], () => ({
        ...common(context),
        expansion_type: 'slash_command',
        command_name: context.command,
        command_args: context.args,
        command_source: context.scope,
        prompt: `/${context.command}${context.args !== '' ? ` ${context.args}` : ''}`,
      }));
      const blocked = results.find((entry) => entry.result.kind === 'blocked' || entry.result.stop !== undefined);
      if (blocked) return { additionalContext: [], block: { block: true, reason: blocked.result.reason ?? blocked.result.stop ?? 'blocked by a hook', by: byHook(blocked) } };
      const texts = results.flatMap((entry) => (entry.result.additionalContext ? [entry.result.additionalContext] : []));
      return texts.length === 0 ? undefined : { additionalContext: texts };
    });
  }

  if (hooks.listens('InstructionsLoaded') && kernel.container.isBound(TOKENS.InstructionLoads)) {
    // Each instruction file as it joins the context (the system-prompt plugin's): the session's at
    // its start, their imports, a subfolder's when a file tool first touches a file under it. The
    // matcher is the load reason; the hook is told only (decision.ts TELL_ONLY), and the load waits for it.
    stops.push(kernel.container.get(TOKENS.InstructionLoads).onLoad(async (load) => {
      const { session } = load;
      await hooks.dispatch('InstructionsLoaded', [load.loadReason], () => ({
        ...common(session),
        file_path: load.filePath,
        memory_type: load.memoryType,
        load_reason: load.loadReason,
        ...(load.triggerFilePath !== undefined ? { trigger_file_path: load.triggerFilePath } : {}),
        ...(load.parentFilePath !== undefined ? { parent_file_path: load.parentFilePath } : {}),
      }));
    }));
  }

  if (listens('Notification')) {
    kernel.hooks.notification.tapPromise(NAME, async (payload) => {
      // Our own reports (a failed hook) would otherwise start Notification hooks about themselves.
      if (/^hooks?[: ]/.test(payload.message)) return;
      const type = payload.kind === 'approval_needed' ? 'permission_prompt' : payload.kind === 'idle' ? 'idle_prompt' : payload.kind;
      const main = kernel.session;
      const session: SessionContext = { sessionId: payload.sessionId ?? main.sessionId, agentId: payload.agentId ?? main.agentId, projectRoot: kernel.projectRoot, homeDir: kernel.homeDir };
      remind(await both(
        'Notification',
        'Notification',
        [type],
        // Claude Code's common fields (transcript_path included), as on every other event.
        () => ({ ...common(session), message: payload.message, notification_type: type }),
        session,
        () => ({ ...own(session), kind: payload.kind, detail: payload.message }),
      ));
    });
  }
  return () => {
    for (const stop of stops) stop();
  };
}
