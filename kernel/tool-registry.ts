/** SPEC T1: registration order is kept; a later tool of the same name replaces the earlier in place. */
import type { ToolRegistry } from '../types/services.js';
import { toolDefinition, type Tool, type ToolDefinition } from '../types/tools.js';

export class ToolRegistryImpl implements ToolRegistry {
  private readonly tools: Tool[] = [];
  /** Definitions are cached so every request of a session sends byte-identical tool JSON (K3). */
  private cache = new Map<boolean, ToolDefinition[]>();

  register(tool: Tool): void {
    const index = this.tools.findIndex((t) => t.name === tool.name);
    if (index >= 0) this.tools[index] = tool;
    else this.tools.push(tool);
    this.cache.clear();
  }

  unregister(name: string): boolean {
    const index = this.tools.findIndex((t) => t.name === name);
    if (index < 0) return false;
    this.tools.splice(index, 1);
    this.cache.clear();
    return true;
  }

  get(name: string): Tool | undefined {
    return this.tools.find((t) => t.name === name);
  }

  list(): readonly Tool[] {
    return this.tools;
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
