/**
 * The sub-agent runner (G1–G3), bound under TOKENS.SubagentRunner: the agent tool, background
 * tasks, fork-mode skills and the hooks' subagent action all start sub-agents here, so each gets
 * the same tool filter, model choice, permission chain and hooks (a child session runs the
 * kernel's own loop) and the same visibility (every event goes to the subscribers, tagged).
 */
import { nodeCrypto } from '../../sdk/lazy-builtin.js';
import type { AgentEvent } from '../../types/events.js';
import { emptyUsage } from '../../types/messages.js';
import type { PermissionMode } from '../../types/permissions.js';
import type { KernelApi } from '../../types/plugin.js';
import type { AgentSession } from '../../types/session.js';
import { findRole, type SubagentEvent, type SubagentRequest, type SubagentResult, type SubagentRole, type SubagentRunner } from '../../types/subagents.js';
import { TOKENS } from '../../types/tokens.js';
import { chooseModel } from '../../sdk/model-choice.js';
import { BUILTIN_ROLES, mergeRoles, type RoleDefinition } from './roles.js';
import { subagentToolFilter } from './tool-filter.js';

/** The agent tool's name (agent-tool.ts): what a start by another route is judged as. */
export const AGENT_TOOL_NAME = 'agent';

export const NESTING_REFUSED = 'Sub-agents cannot start sub-agents. Do this part of the task yourself with your own tools, or report back so the agent that started you can delegate it.';

/** A sub-agent that has started: its session (to message it) and its result to come. */
export interface StartedSubagent {
  agentId: string;
  role: string;
  session: AgentSession | undefined;
  result: Promise<SubagentResult>;
  /** Why it did not start (the result says the same). */
  refusal?: string;
}

export function newAgentId(): string {
  return `agent-${nodeCrypto().randomBytes(4).toString('hex')}`;
}

/** A service and the one function that attaches it to its plugin's kernel API (see `SubagentService.create`). */
export interface AttachableService {
  service: SubagentService;
  attach(kernel: KernelApi, roles: readonly RoleDefinition[]): void;
}

/**
 * Its state is in true private fields: the service is reachable from the container by any plugin,
 * and it holds the subagents plugin's own KernelApi, whose taps count as that build plugin's
 * (after an organisation's redaction, at any stage). Nothing on the object leads to it, and
 * nothing on the object can swap it.
 */
export class SubagentService implements SubagentRunner {
  #kernel: KernelApi | undefined;
  #definitions: RoleDefinition[] = mergeRoles(BUILTIN_ROLES);
  readonly #listeners = new Set<(event: SubagentEvent) => void>();
  /** The permission mode of each agent's current run (seen on its tool calls). */
  readonly #modes = new Map<string, PermissionMode>();

  /**
   * A new service and its `attach` (the kernel and the roles from definition files, later lists
   * winning by name), kept by the plugin that made it: not a method, so no other plugin holding
   * the service can attach its own KernelApi; and usable once.
   */
  static create(): AttachableService {
    const service = new SubagentService();
    return {
      service,
      attach(kernel, roles) {
        if (service.#kernel) throw new Error('the sub-agent service is already attached to its kernel');
        service.#kernel = kernel;
        service.#definitions = mergeRoles(BUILTIN_ROLES, roles);
      },
    };
  }

  private constructor() {}

  roles(): readonly SubagentRole[] {
    return this.#definitions.map(({ prompt: _prompt, hooks: _hooks, ...role }) => role);
  }

  /** The role a type name names, folded as everywhere (`Explore`, `general-purpose`, `Plan`: findRole). */
  role(name: string): RoleDefinition | undefined {
    return findRole(this.#definitions, name);
  }

  subscribe(listener: (event: SubagentEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  noteMode(agentId: string, mode: PermissionMode): void {
    this.#modes.set(agentId, mode);
  }

  /**
   * The route of every start but the agent tool's (fork skills, command files with `context: fork`,
   * hooks' subagent actions, any plugin's): judged first as the agent tool's call starting this
   * type would be (`permitted`). The agent tool starts through `start`, after the gate judged its call.
   */
  async run(request: SubagentRequest): Promise<SubagentResult> {
    const agentId = request.agentId ?? newAgentId();
    const refusal = await this.permitted({ ...request, agentId });
    if (refusal !== undefined) return failure(agentId, refusal);
    return this.start({ ...request, agentId }).result;
  }

  /**
   * Whether the permission chain lets this sub-agent type start, asked through the kernel as the
   * agent tool's call (a `named` target: the type, `general` also as `general-purpose`): a deny or
   * ask rule naming the type (`Agent(general)`, `Task(writer)`), managed or the user's, holds
   * whichever route starts it; an ask is put to the user (no one to answer: refused). With no such
   * rule the agent tool is read-only, so every mode allows it and nothing new is asked.
   * Undefined: start (a start that `start` refuses anyway — nesting, an unknown type — is not asked about).
   */
  private async permitted(request: SubagentRequest & { agentId: string }): Promise<string | undefined> {
    const kernel = this.#kernel;
    if (!kernel) return undefined;
    const parent = request.parent ?? kernel.session;
    const role = this.role(request.role?.trim() || 'general');
    if (!role || parent.parentAgentId !== undefined || request.prompt.trim() === '') return undefined;
    const refused = (reason: string): string => `The sub-agent "${role.name}" was not started: ${reason}`;
    if (!kernel.askPermission) return refused('this kernel cannot judge a sub-agent a plugin starts, so none starts unjudged');
    const answer = await kernel.askPermission({
      toolName: AGENT_TOOL_NAME,
      input: { description: request.description ?? `sub-agent ${role.name}`, prompt: request.prompt, subagent_type: role.name },
      callId: `start-${request.agentId}`,
      session: parent,
      mode: request.mode ?? this.#modes.get(parent.agentId) ?? 'default',
      ...(request.signal ? { signal: request.signal } : {}),
    });
    return answer.allowed ? undefined : refused(answer.reason);
  }

  /** Start a sub-agent; refusals (nesting, unknown role) come back as an error result at once. */
  start(request: SubagentRequest): StartedSubagent {
    const agentId = request.agentId ?? newAgentId();
    const roleName = request.role?.trim() || 'general';
    const refuse = (text: string): StartedSubagent => ({ agentId, role: roleName, session: undefined, result: Promise.resolve(failure(agentId, text)), refusal: text });
    const kernel = this.#kernel;
    if (!kernel) return refuse('Sub-agents are not available: the subagents plugin has not started.');
    const parent = request.parent ?? kernel.session;
    if (parent.parentAgentId !== undefined) return refuse(NESTING_REFUSED);
    if (request.prompt.trim() === '') return refuse('A sub-agent needs a non-empty prompt with its whole task.');
    const role = this.role(roleName);
    if (!role) return refuse(`Unknown sub-agent type "${roleName}". Available types: ${this.#definitions.map((r) => r.name).join(', ')}.`);

    let child: AgentSession;
    try {
      child = this.createChild(kernel, parent, role, request, agentId);
    } catch (error) {
      return refuse(`The sub-agent could not be started: ${(error as Error).message}`);
    }
    const mode = request.mode ?? this.#modes.get(parent.agentId) ?? 'default';
    const tag = { agentId, parentAgentId: parent.agentId, role: role.name, ...(request.description ? { description: request.description } : {}), ...(request.background ? { taskId: agentId } : {}) };
    const hooks = role.hooks;
    // The definition's own hooks see this sub-agent's events (its Stop hooks as SubagentStop) while it runs.
    const startHooks = hooks && kernel.container.isBound(TOKENS.ComponentHooks) ? () => kernel.container.get(TOKENS.ComponentHooks).activate(hooks, { sessionId: child.sessionId, agentId, asSubagent: true }) : undefined;
    const result = this.drive(child, { prompt: request.prompt, mode, ...(request.signal ? { signal: request.signal } : {}) }, (event) => this.emit({ ...tag, event }), startHooks);
    return { agentId, role: role.name, session: child, result };
  }

  private createChild(kernel: KernelApi, parent: AgentSession, role: RoleDefinition, request: SubagentRequest, agentId: string): AgentSession {
    const current = parent.currentProvider();
    const registry = kernel.container.get(TOKENS.ProviderRegistry);
    const choice = chooseModel(request.model ?? role.model, registry.configured(), { provider: current.id, model: current.model });
    if (choice.notice) kernel.notify('notice', choice.notice, parent);
    const tools = subagentToolFilter({
      ...(request.background ? { background: true } : {}),
      ...(role.readOnly || request.readOnly ? { readOnly: true } : {}),
      ...(role.tools ? { allowed: role.tools } : {}),
      ...(role.disallowedTools || request.disallowedTools ? { disallowed: [...(role.disallowedTools ?? []), ...(request.disallowedTools ?? [])] } : {}),
      ...(request.allowedTools ? { only: request.allowedTools } : {}),
    });
    const systemPrompt = [role.prompt, ...(request.systemPrompt ?? [])].filter((part) => part.trim().length > 0);
    const child = parent.fork({
      context: request.context ?? 'none',
      tools,
      systemPrompt,
      agentId,
      agentType: role.name,
      ...(choice.selection.provider ? { provider: choice.selection.provider } : {}),
      ...(choice.selection.model ? { model: choice.selection.model } : {}),
    });
    // Resolved now, so an unusable provider or model is a refusal rather than a failed run.
    child.currentProvider();
    return child;
  }

  private async drive(child: AgentSession, options: { prompt: string; mode: PermissionMode; signal?: AbortSignal }, emit: (event: AgentEvent) => void, startHooks?: () => Promise<() => void>): Promise<SubagentResult> {
    let done: Extract<AgentEvent, { type: 'done' }> | undefined;
    this.#modes.set(child.agentId, options.mode);
    let endHooks: (() => void) | undefined;
    try {
      endHooks = await startHooks?.();
      for await (const event of child.run(options)) {
        if (event.type === 'done') done = event;
        emit(event);
      }
    } catch (error) {
      return failure(child.agentId, `The sub-agent failed: ${(error as Error).message}`);
    } finally {
      endHooks?.();
      this.#modes.delete(child.agentId);
    }
    if (!done) return failure(child.agentId, 'The sub-agent ended without a result.');
    return { agentId: child.agentId, text: done.finalText, endReason: done.reason, isError: done.reason !== 'completed', usage: done.usage, iterations: done.iterations };
  }

  private emit(event: SubagentEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A UI's listener must not take a sub-agent down.
      }
    }
  }
}

function failure(agentId: string, text: string): SubagentResult {
  return { agentId, text, endReason: 'error', isError: true, usage: emptyUsage(), iterations: 0 };
}

/**
 * What the container hands out under TOKENS.SubagentRunner: the contract's methods and nothing
 * else (no `start`, `role`, `noteMode`), frozen, so a plugin can neither reach the
 * service's internals through it nor replace a method for every other caller.
 */
export function runnerFacade(service: SubagentService): SubagentRunner {
  return Object.freeze({
    roles: () => service.roles(),
    run: (request: SubagentRequest) => service.run(request),
    subscribe: (listener: (event: SubagentEvent) => void) => service.subscribe(listener),
  });
}
