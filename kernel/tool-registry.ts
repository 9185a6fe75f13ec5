/**
 * Every tool of the process (T1). Boot tools keep registration order; tools registered after
 * boot (e.g. MCP servers that connected in the background) follow, sorted by name, so the list is
 * deterministic whatever order they arrived in. Sessions read it through a ToolView that changes
 * only between turns.
 *
 * Every registration records its owner (the plugin, through its own view `forOwner`). A name is
 * one owner's: another owner's registration of it is refused, naming both, unless the newcomer
 * declares `replaces: [<tool name>]`; then it is stacked over the incumbent, and removing it (the
 * replacer failed, or unregistered it) brings the incumbent back. An owner may remove only its
 * own. A configured plugin may not take a tool from a plugin the run cannot go without (essential,
 * a safety layer, required): that is refused naming both; a tool it does take is said with a
 * warning. The host (the registry itself, without a claim: tests, custom builds) may do anything.
 * What is registered is kept as a frozen facade (sealed-tool.ts), so `get` never hands out the
 * object a plugin could change.
 *
 * A plugin's tool name is one no reader confuses with another (tool-names.ts): plain ASCII, not
 * Claude Code's name for a tool, outside `mcp__` (the MCP plugin's), and not a registered name in
 * another case, whoever owns it. While booting a plugin registers each name once: a second
 * registration of its own name would silently replace the first (after boot it updates it, as
 * MCP servers' tools change).
 */
import type { ToolRegistry } from '../types/services.js';
import { toolDefinition, type Tool, type ToolDefinition } from '../types/tools.js';
import { sealedTool } from './sealed-tool.js';
import { foldedToolName, MCP_PLUGIN, shownToolName, toolNameProblem } from './tool-names.js';

/** Who first registered each facade (its code's author): a failure inside it names them. */
const owners = new WeakMap<Tool, string | undefined>();

/** The registrant of a registered tool as a message names it ("plugin acme"); "the host" otherwise. */
export function toolOwnerName(tool: Tool): string {
  return ownerName(owners.get(tool));
}

export interface ToolClaim {
  /** Who registers: a plugin name, or a label such as "a service from the container". */
  owner: string;
  /** The newcomer's `replaces`: a tool name listed there may be taken from its owner. */
  replaces?: readonly string[];
  /** A plugin named in configuration (not one of the build's), or the container's shared view: its tools are never system tools. */
  configured?: boolean;
}

export interface RegistryGuard {
  /** Why a configured plugin may not take `owner`'s tools ("it is essential"), or undefined. */
  guarded?(owner: string): string | undefined;
  /** Where a configured plugin's takeover of another plugin's tool is said. */
  warn?(message: string): void;
}

interface Entry {
  tool: Tool;
  /** Undefined: the host. */
  owner: string | undefined;
  configured: boolean;
}

export class ToolRegistryImpl implements ToolRegistry {
  /** Each name's registrations, the one in force last; boot names keep their first place. */
  private readonly stacks = new Map<string, Entry[]>();
  /** Owners removed after a failure (unregisterOwner). */
  private readonly removedOwners = new Set<string>();
  private readonly bootOrder: string[] = [];
  private sealed = false;
  private ordered: readonly Tool[] | undefined;
  private cache = new Map<boolean, ToolDefinition[]>();
  /** Bumped on every change; views compare it to know whether to rebuild. */
  version = 0;

  constructor(private readonly guard: RegistryGuard = {}) {}

  /** Boot is over: tools registered from now on are "late" and sorted by name. */
  seal(): void {
    this.sealed = true;
  }

  /** The registry as one owner sees it: its registrations carry its name. */
  forOwner(claim: ToolClaim): ToolRegistry {
    // Frozen: a view a plugin resolves (TOKENS.ToolRegistry) cannot be patched for its other users.
    const view: ToolRegistry = {
      register: (tool) => this.register(tool, claim),
      unregister: (name) => this.unregister(name, claim.owner),
      get: (name) => this.get(name),
      list: () => this.list(),
      definitions: (options) => this.definitions(options),
      origin: (name) => this.origin(name),
    };
    return Object.freeze(view);
  }

  origin(name: string): 'build' | 'configured' | undefined {
    const current = this.stacks.get(name)?.at(-1);
    return current === undefined ? undefined : current.configured ? 'configured' : 'build';
  }

  /** Why `claim` may not register `name` now; undefined when it may. */
  refusal(name: string, claim: ToolClaim | undefined): string | undefined {
    if (claim) {
      const problem = this.nameProblem(name, claim);
      if (problem !== undefined) return `${ownerName(claim.owner)}: ${problem}`;
    }
    const current = this.stacks.get(name)?.at(-1);
    if (current && claim && current.owner === claim.owner && !this.sealed) return `${ownerName(claim.owner)} registers tool ${shownToolName(name)} twice while booting; one of the two would silently replace the other`;
    if (!current || !claim || current.owner === claim.owner) return undefined;
    if (current.owner !== undefined && (claim.replaces ?? []).includes(name)) {
      // `replaces` is how a plugin stands in for an ordinary one; never for a policy the run depends on.
      const why = claim.configured === true ? this.guard.guarded?.(current.owner) : undefined;
      return why === undefined ? undefined : `${ownerName(claim.owner)} cannot take tool ${name} from ${ownerName(current.owner)}: ${why}; only a custom build may replace it`;
    }
    return `tool ${name} is already registered by ${ownerName(current.owner)} (declare replaces: ['${name}'] to replace it)`;
  }

  /** Why a claimant's tool may not be called `name` (its shape, or another registered name in another case). */
  private nameProblem(name: unknown, claim: ToolClaim): string | undefined {
    // `mcp__` is the MCP plugin's (or its replacement's); the build's own plugins are trusted with it (a custom build's bridge, tests' stand-ins).
    const mayUseMcp = claim.configured !== true || claim.owner === MCP_PLUGIN || (claim.replaces ?? []).includes(MCP_PLUGIN);
    const problem = toolNameProblem(name, mayUseMcp);
    if (problem !== undefined || typeof name !== 'string') return problem;
    const folded = foldedToolName(name);
    for (const [other, stack] of this.stacks) {
      if (other !== name && foldedToolName(other) === folded) return `tool ${shownToolName(name)} differs only by case from tool ${other} of ${ownerName(stack.at(-1)!.owner)}; choose another name`;
    }
    return undefined;
  }

  register(given: Tool, claim?: ToolClaim): void {
    // The name is checked before the facade is made: a refused tool is never read further.
    if (claim) {
      const problem = this.nameProblem((given as { name?: unknown } | undefined)?.name, claim);
      if (problem !== undefined) throw new Error(`${ownerName(claim.owner)}: ${problem}`);
    }
    if (claim && this.removedOwners.has(claim.owner)) throw new Error(`${claim.owner} was removed (it failed); it registers no tools`);
    // Kept (and handed to everyone) as a frozen facade read once now: nobody changes it later.
    const tool = sealedTool(given, claim?.configured !== true);
    const refusal = this.refusal(tool.name, claim);
    if (refusal) throw new Error(refusal);
    const owner = claim?.owner;
    if (!owners.has(tool)) owners.set(tool, owner);
    const entry: Entry = { tool, owner, configured: claim?.configured === true };
    const stack = this.stacks.get(tool.name);
    const incumbent = stack?.at(-1)?.owner;
    // A configured plugin's takeover is allowed (it said replaces:) but never silent.
    if (claim?.configured === true && incumbent !== undefined && incumbent !== owner) this.guard.warn?.(`${ownerName(owner)} takes tool ${tool.name} from ${ownerName(incumbent)} (replaces: ['${tool.name}'])`);
    if (!stack) {
      this.stacks.set(tool.name, [entry]);
      if (!this.sealed) this.bootOrder.push(tool.name);
    } else {
      const own = stack.findIndex((existing) => existing.owner === owner);
      // The host replaces whatever is in force; an owner replaces its own entry, or stacks on top.
      if (owner === undefined) stack[stack.length - 1] = entry;
      else if (own >= 0 && own === stack.length - 1) stack[own] = entry;
      else stack.push(entry);
    }
    this.changed();
  }

  /** Removes `owner`'s registration (the host's call removes the one in force). */
  unregister(name: string, owner?: string): boolean {
    const stack = this.stacks.get(name);
    if (!stack) return false;
    const at = owner === undefined ? stack.length - 1 : stack.findIndex((entry) => entry.owner === owner);
    if (at < 0) throw new Error(`tool ${name} is registered by ${ownerName(stack.at(-1)!.owner)}; ${owner} cannot remove it`);
    stack.splice(at, 1);
    if (stack.length === 0) {
      this.stacks.delete(name);
      const boot = this.bootOrder.indexOf(name);
      if (boot >= 0) this.bootOrder.splice(boot, 1);
    }
    this.changed();
    return true;
  }

  /** Removes every registration of `owner` (a plugin that failed), bringing back what it replaced; it registers nothing after. */
  unregisterOwner(owner: string): void {
    this.removedOwners.add(owner);
    for (const [name, stack] of [...this.stacks]) if (stack.some((entry) => entry.owner === owner)) this.unregister(name, owner);
  }

  get(name: string): Tool | undefined {
    return this.stacks.get(name)?.at(-1)?.tool;
  }

  list(): readonly Tool[] {
    if (!this.ordered) {
      const boot = new Set(this.bootOrder);
      const late = [...this.stacks.keys()].filter((name) => !boot.has(name)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      // Frozen: the same list goes to every caller (the sessions' tool views among them).
      this.ordered = Object.freeze([...this.bootOrder, ...late].map((name) => this.get(name)!));
    }
    return this.ordered;
  }

  /** Definitions are cached so every request sends byte-identical tool JSON (K3). */
  definitions(options: { readOnlyOnly?: boolean } = {}): ToolDefinition[] {
    const readOnlyOnly = options.readOnlyOnly ?? false;
    let defs = this.cache.get(readOnlyOnly);
    if (!defs) {
      // Frozen: every plugin is handed the same cached list.
      defs = Object.freeze(this.list().filter((t) => !readOnlyOnly || t.readOnly || t.system).map((tool) => Object.freeze(toolDefinition(tool)))) as ToolDefinition[];
      this.cache.set(readOnlyOnly, defs);
    }
    return defs;
  }

  private changed(): void {
    this.ordered = undefined;
    this.cache.clear();
    this.version++;
  }
}

function ownerName(owner: string | undefined): string {
  if (owner === undefined) return 'the host';
  return owner.includes(' ') ? owner : `plugin ${owner}`;
}
