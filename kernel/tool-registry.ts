/**
 * Every tool of the process (SPEC T1). Boot tools keep registration order (a later tool of the
 * same name replaces the earlier in place); tools registered after boot (e.g. MCP servers that
 * connected in the background) follow, sorted by name, so the list is deterministic whatever
 * order they arrived in. Sessions read it through a ToolView that changes only between turns.
 */
import type { ToolRegistry } from '../types/services.js';
import { toolDefinition, type Tool, type ToolDefinition } from '../types/tools.js';

export class ToolRegistryImpl implements ToolRegistry {
  private readonly boot: Tool[] = [];
  private readonly late = new Map<string, Tool>();
  private sealed = false;
  private ordered: Tool[] | undefined;
  private cache = new Map<boolean, ToolDefinition[]>();
  /** Bumped on every change; views compare it to know whether to rebuild. */
  version = 0;

  /** Boot is over: tools registered from now on are "late" and sorted by name. */
  seal(): void {
    this.sealed = true;
  }

  register(tool: Tool): void {
    const index = this.boot.findIndex((t) => t.name === tool.name);
    if (index >= 0) this.boot[index] = tool;
    else if (this.sealed) this.late.set(tool.name, tool);
    else this.boot.push(tool);
    this.changed();
  }

  unregister(name: string): boolean {
    const index = this.boot.findIndex((t) => t.name === name);
    if (index >= 0) this.boot.splice(index, 1);
    else if (!this.late.delete(name)) return false;
    this.changed();
    return true;
  }

  get(name: string): Tool | undefined {
    return this.boot.find((t) => t.name === name) ?? this.late.get(name);
  }

  list(): readonly Tool[] {
    this.ordered ??= [...this.boot, ...[...this.late.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))];
    return this.ordered;
  }

  /** Definitions are cached so every request sends byte-identical tool JSON (K3). */
  definitions(options: { readOnlyOnly?: boolean } = {}): ToolDefinition[] {
    const readOnlyOnly = options.readOnlyOnly ?? false;
    let defs = this.cache.get(readOnlyOnly);
    if (!defs) {
      defs = this.list().filter((t) => !readOnlyOnly || t.readOnly || t.system).map(toolDefinition);
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
