/**
 * The hint a managed rule naming no known tool is refused with: the known tool its name is most
 * likely a misspelling of (`Bahs` → `Bash`, `read_flie` → `read_file`), or, when none is close,
 * the names a rule may use. Known: the rule names of the built-in tools (FRIENDLY_NAMES) and every
 * registered tool.
 */
import { closestKey } from '../../config/unknown-keys.js';
import type { ToolRegistry } from '../../types/services.js';
import { FRIENDLY_NAMES } from './rule-syntax.js';

export function nearestToolHint(name: string, tools: Pick<ToolRegistry, 'list'>): string {
  const known = [...Object.keys(FRIENDLY_NAMES), ...tools.list().map((tool) => tool.name)];
  const near = closestKey(name, known);
  if (near !== undefined) return `did you mean ${near}?`;
  return `use ${Object.keys(FRIENDLY_NAMES).join(', ')}, a registered tool name, or mcp__server__tool`;
}
