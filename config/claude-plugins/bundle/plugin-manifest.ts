/**
 * `.claude-plugin/plugin.json`, read as Claude Code reads it: only `name` is required (kebab-case
 * recommended; it becomes part of command, agent and MCP tool names, so letters, digits, `-` and
 * `_` only); metadata (`version`, `description`, `author`) is shown; the component keys
 * (`commands`, `agents`, `skills`, `hooks`, `mcpServers`) are a `./relative` path, a list of them,
 * or — for `hooks` and `mcpServers` — an inline object. Unknown keys are ignored (Claude Code's
 * validator only warns about them). A component key of the wrong type is a problem naming the key;
 * that component is left out and the rest of the plugin loads.
 */
import type { ClaudePluginProblem } from '../../../types/claude-plugins.js';
import { isRecord } from '../../is-record.js';

/** Becomes part of `/plugin:command`, `plugin:agent` and `mcp__plugin_<name>_<server>__…`. */
export const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export type ComponentKey = 'commands' | 'agents' | 'skills' | 'hooks' | 'mcpServers';
export const COMPONENT_KEYS: readonly ComponentKey[] = ['commands', 'agents', 'skills', 'hooks', 'mcpServers'];

/** A component as plugin.json gives it: paths (relative to the plugin root, as written) or an inline object. */
export type ComponentSpec =
  | { kind: 'paths'; paths: string[]; inline: { value: Record<string, unknown>; at: (string | number)[] }[] }
  | { kind: 'invalid' };

export interface Manifest {
  name?: string;
  version?: string;
  description?: string;
  author?: string;
  components: Partial<Record<ComponentKey, ComponentSpec>>;
}

const kind = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

/** The parsed JSON of plugin.json (already known to be JSON) → manifest and problems; undefined when it cannot be a manifest at all. */
export function readManifest(data: unknown, file: string, problems: ClaudePluginProblem[]): Manifest | undefined {
  if (!isRecord(data)) {
    problems.push({ file, message: `plugin.json must be a JSON object, not ${kind(data)}; the plugin is not loaded` });
    return undefined;
  }
  const manifest: Manifest = { components: {} };
  const text = (key: 'version' | 'description'): void => {
    const value = data[key];
    if (value === undefined || value === null) return;
    if (typeof value === 'string') manifest[key] = value.trim();
    else problems.push({ file, message: `"${key}" must be a string, not ${kind(value)}; ignored` });
  };
  if (data.name !== undefined) {
    if (typeof data.name !== 'string' || !PLUGIN_NAME.test(data.name.trim())) {
      problems.push({ file, message: `"name" must be a plugin name (letters, digits, "-" and "_", kebab-case as Claude Code asks), not ${JSON.stringify(data.name)}; the plugin is not loaded` });
      return undefined;
    }
    manifest.name = data.name.trim();
  }
  text('version');
  text('description');
  const author = data.author;
  if (typeof author === 'string' && author.trim()) manifest.author = author.trim();
  else if (isRecord(author) && typeof author.name === 'string' && author.name.trim()) manifest.author = author.name.trim();
  else if (author !== undefined && author !== null) problems.push({ file, message: '"author" must be { "name": …, "email"?: …, "url"?: … }; ignored' });

  for (const key of COMPONENT_KEYS) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    const inlineAllowed = key === 'hooks' || key === 'mcpServers';
    // A list may mix paths and (hooks, mcpServers) inline objects: a marketplace entry's parts added
    // to plugin.json's are written so.
    const items: unknown[] = Array.isArray(value) ? value : [value];
    const usable = (item: unknown): boolean => typeof item === 'string' || (inlineAllowed && isRecord(item));
    if (items.every(usable)) {
      manifest.components[key] = {
        kind: 'paths',
        paths: items.filter((item): item is string => typeof item === 'string'),
        inline: items.flatMap((item, index) => (isRecord(item) ? [{ value: item, at: Array.isArray(value) ? [key, index] : [key] }] : [])),
      };
    } else {
      const expected = inlineAllowed ? 'a "./path", a list of paths, or an inline object' : 'a "./path" or a list of paths';
      problems.push({ file, message: `"${key}" must be ${expected}, not ${kind(value)}; the plugin's ${key} are not loaded` });
      manifest.components[key] = { kind: 'invalid' };
    }
  }
  return manifest;
}
