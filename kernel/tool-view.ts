/**
 * A session's view of the tools: its filter applied to the registry, frozen for the length of a
 * turn. `refresh()` runs between turns only, so tools registered or removed mid-run reach the
 * model on the next turn, and the stable prefix (tool JSON, system prompt) changes only then (K3).
 */
import type { Tool, ToolDefinition } from '../types/tools.js';
import { toolDefinition } from '../types/tools.js';
import type { ToolRegistryImpl } from './tool-registry.js';

export interface ToolLookup {
  get(name: string): Tool | undefined;
  list(): readonly Tool[];
}

export interface ToolChange {
  added: string[];
  removed: string[];
}

export class ToolView implements ToolLookup {
  private tools: readonly Tool[] = [];
  private byName = new Map<string, Tool>();
  private seenVersion = -1;
  private cache = new Map<boolean, ToolDefinition[]>();

  constructor(
    private readonly registry: ToolRegistryImpl,
    private readonly filter: ((tool: Tool) => boolean) | undefined,
  ) {}

  /** Take the registry's current tools; returns what changed since the last refresh (undefined the first time or when nothing did). */
  refresh(): ToolChange | undefined {
    if (this.registry.version === this.seenVersion) return undefined;
    const first = this.seenVersion < 0;
    this.seenVersion = this.registry.version;
    const next = this.registry.list().filter((tool) => !this.filter || this.filter(tool));
    const before = new Set(this.tools.map((t) => t.name));
    const after = new Set(next.map((t) => t.name));
    const replaced = next.some((tool) => before.has(tool.name) && this.byName.get(tool.name) !== tool);
    this.tools = next;
    this.byName = new Map(next.map((t) => [t.name, t]));
    this.cache.clear();
    if (first) return undefined;
    const change = { added: [...after].filter((n) => !before.has(n)), removed: [...before].filter((n) => !after.has(n)) };
    return change.added.length > 0 || change.removed.length > 0 || replaced ? change : undefined;
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }

  list(): readonly Tool[] {
    return this.tools;
  }

  names(): string[] {
    return this.tools.map((t) => t.name);
  }

  definitions(options: { readOnlyOnly?: boolean } = {}): ToolDefinition[] {
    const readOnlyOnly = options.readOnlyOnly ?? false;
    let defs = this.cache.get(readOnlyOnly);
    if (!defs) {
      defs = this.tools.filter((t) => !readOnlyOnly || t.readOnly || t.system).map(toolDefinition);
      this.cache.set(readOnlyOnly, defs);
    }
    return defs;
  }
}

/** A session's `tools` option as a predicate. */
export function toolFilter(option: readonly string[] | ((tool: Tool) => boolean) | undefined): ((tool: Tool) => boolean) | undefined {
  if (option === undefined) return undefined;
  if (typeof option === 'function') return option;
  const names = new Set(option);
  return (tool) => names.has(tool.name) || tool.system === true;
}
