/**
 * The subagents plugin (G1–G3): the sub-agent runner service (TOKENS.SubagentRunner)
 * that the `agent` tool, background tasks, fork-mode skills and the hooks' subagent action use;
 * the `agent` tool; the task tools; `/agents`. Roles: `general`, `explore` (read-only), and definition files
 * in Claude Code's format (definitions.ts), loaded at boot only when such files exist.
 */
import { readdir } from 'node:fs/promises';
import { ContainerModule } from 'inversify';
import type { ServiceIdentifier } from 'inversify';
import { definePlugin, type KernelApi, type MewcodePlugin } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { terminalSafe } from '../../config/terminal-safe.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import type { ClaudePluginBundles } from '../../types/claude-plugins.js';
import { agentTool } from './agent-tool.js';
import { agentsCommand } from './agents-command.js';
import { agentDirectories, type AgentDirectory } from './definitions-paths.js';
import type { DisallowList } from './definitions.js';
import type { RoleDefinition } from './roles.js';
import { runnerFacade, SubagentService, type AttachableService } from './runner.js';
import { taskTools } from './task-tools.js';
import { TaskManager } from './tasks.js';

const NAME = 'subagents';

/**
 * This plugin's own per-kernel state (not a contract: other plugins use TOKENS.SubagentRunner): an
 * opaque key, which the plugin's own map turns into the service and its `attach`. Any plugin can
 * resolve the key; only this plugin can use it.
 */
const STATE: ServiceIdentifier<object> = Symbol.for('mewcode/subagents/service') as ServiceIdentifier<object>;

async function hasDefinitions(dirs: readonly AgentDirectory[]): Promise<boolean> {
  const found = await Promise.all(dirs.map(({ dir }) => (dir.endsWith('.md') ? Promise.resolve(true) : readdir(dir).then((names) => names.some((n) => n.endsWith('.md')), () => false))));
  return found.includes(true);
}

/** The agents of the Claude Code plugins of this run: user-level (the user chose them), lowest precedence. */
function pluginAgentDirectories(kernel: KernelApi): AgentDirectory[] {
  if (!kernel.container.isBound(TOKENS.ClaudePluginBundles)) return [];
  return kernel.container
    .get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles)
    .list()
    .filter((bundle) => bundle.loaded)
    .flatMap((bundle) => bundle.agents.map((dir): AgentDirectory => ({ dir, project: false, plugin: bundle.name, variables: bundle.variables })));
}

async function readRoles(kernel: KernelApi): Promise<{ roles: RoleDefinition[]; disallowLists: DisallowList[] }> {
  const dirs = [...pluginAgentDirectories(kernel), ...agentDirectories(kernel.projectRoot, kernel.homeDir)];
  if (!(await hasDefinitions(dirs))) return { roles: [], disallowLists: [] };
  const trust = kernel.container.isBound(TOKENS.WorkspaceTrust) ? kernel.container.get<WorkspaceTrust>(TOKENS.WorkspaceTrust) : undefined;
  const { loadDefinitions } = await import('./definitions.js');
  const loaded = await loadDefinitions(dirs, trust);
  for (const warning of loaded.warnings) kernel.warn(warning);
  // A definition's own hooks: their problems said now, naming file, line and key.
  const hooks = kernel.container.isBound(TOKENS.ComponentHooks) ? kernel.container.get(TOKENS.ComponentHooks) : undefined;
  for (const role of loaded.roles) {
    if (!role.hooks) continue;
    if (!hooks) kernel.warn(`subagents: ${terminalSafe(role.hooks.file)}: its hooks are not run: this build has no hooks plugin`);
    else for (const warning of await hooks.check(role.hooks)) kernel.warn(warning);
  }
  return { roles: loaded.roles, disallowLists: loaded.disallowLists };
}

export function createSubagentsPlugin(): MewcodePlugin {
  // One plugin object may serve several kernels in a process (tests, custom builds).
  const managers = new Set<TaskManager>();
  const tasksOf = new WeakMap<SubagentService, TaskManager>();
  const services = new WeakMap<object, AttachableService>();
  const disallowListsOf = new WeakMap<object, DisallowList[]>();
  return definePlugin({
    name: NAME,
    version: '0.1.0',
    bindings: new ContainerModule(({ bind }) => {
      const made = SubagentService.create();
      const { service } = made;
      const key = Object.freeze({});
      services.set(key, made);
      bind(STATE).toConstantValue(key);
      bind(TOKENS.SubagentRunner).toConstantValue(runnerFacade(service));
      bind(TOKENS.Command).toConstantValue(agentsCommand(service, () => tasksOf.get(service)));
    }),
    async apply(kernel) {
      const made = services.get(kernel.container.get(STATE));
      if (!made) throw new Error('the sub-agent service of this kernel is missing (its key was bound by another plugin)');
      const { service } = made;
      const read = await readRoles(kernel);
      made.attach(kernel, read.roles);
      if (read.disallowLists.length > 0) disallowListsOf.set(kernel.container.get(STATE), read.disallowLists);
      const tasks = new TaskManager(service, (message, session) => kernel.notify('notice', message, session));
      managers.add(tasks);
      tasksOf.set(service, tasks);
      for (const tool of [agentTool(service, tasks), ...taskTools(tasks)]) kernel.tools.register(tool);
      // A sub-agent runs in the mode its parent's run is in (seen on the parent's tool calls).
      kernel.hooks.preToolUse.tap(NAME, (decision, context) => {
        service.noteMode(context.agentId, context.mode);
        return decision;
      });
      // A message is read once a request of its task carries it; the rest are said in the report.
      kernel.hooks.preModelRequest.tap(NAME, (request, context) => {
        if (context.reason === undefined || context.reason === 'turn') tasks.noteRequest(context.agentId, request.reminder);
        return request;
      });
      // Background tasks stop with the session, each leaving a valid history.
      kernel.hooks.sessionEnd.tapPromise(NAME, () => tasks.stopAll());
    },
    // Every plugin's tools are registered by now: a disallowed name that matches none is reported.
    async start(kernel) {
      const lists = disallowListsOf.get(kernel.container.get(STATE));
      if (!lists) return;
      const { unknownDisallowed } = await import('./definitions.js');
      for (const warning of unknownDisallowed(lists, (name) => kernel.tools.get(name) !== undefined)) kernel.warn(warning);
    },
    async dispose() {
      await Promise.all([...managers].map((tasks) => tasks.stopAll()));
      managers.clear();
    },
  });
}

export default createSubagentsPlugin();
