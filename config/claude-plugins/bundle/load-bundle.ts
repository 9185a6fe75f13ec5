/**
 * One plugin directory → what it contributes (types/claude-plugins.ts), as Claude Code lays a
 * plugin out: `commands/`, `agents/`, `skills/`, `hooks/hooks.json`, `.mcp.json` by default;
 * plugin.json's `commands` and `agents` replace their default folder, `skills` adds to `skills/`,
 * and `hooks` / `mcpServers` (paths or inline objects) add to the default file (a server named in
 * both: plugin.json's wins). Component paths must start with `./` and stay inside the plugin.
 *
 * Every problem names its file and says what is left out; nothing here stops another part (or
 * another plugin) from loading. Nothing is written.
 */
import path from 'node:path';
import type { ClaudePluginBundle, ClaudePluginPart, ClaudePluginProblem, ClaudePluginRoot } from '../../../types/claude-plugins.js';
import { expandPluginVariables, isShellInert, missingPluginScript, withoutProjectDir } from '../../../types/claude-plugins.js';
import { isPathWithin } from '../../../types/path-within.js';
import type { LocatedNode } from '../../located.js';
import { COMPONENT_KEYS, PLUGIN_NAME, readManifest, type ComponentKey, type Manifest } from './plugin-manifest.js';
import { markdownFiles, positionIn, readJsonFile, realOf, skillFolders, statOf } from './plugin-files.js';
import { pluginDataDir } from '../paths.js';
import { isRecord } from '../../is-record.js';

export const MANIFEST = path.join('.claude-plugin', 'plugin.json');
const DEFAULTS: Record<ComponentKey, string> = { commands: 'commands', agents: 'agents', skills: 'skills', hooks: path.join('hooks', 'hooks.json'), mcpServers: '.mcp.json' };

export function notLoaded(root: ClaudePluginRoot, name: string, problems: ClaudePluginProblem[]): ClaudePluginBundle {
  return {
    id: root.id,
    name,
    root: root.root,
    origin: root.origin,
    loaded: false,
    commands: [],
    agents: [],
    skills: [],
    hooks: [],
    mcpServers: [],
    variables: {},
    counts: { commands: 0, agents: 0, skills: 0, hooks: 0, mcpServers: 0 },
    problems,
  };
}

/** Every string inside `value` with the plugin's variables expanded (a fresh copy). */
/**
 * What is pasted into text a shell or a program runs (hook commands, MCP servers' command and
 * arguments). Never the project's path into a hook command: a folder named `x$(touch ~/pwned)`
 * (a downloaded archive's choice) would run on the host; the hook's shell expands
 * `${CLAUDE_PROJECT_DIR}` from its environment instead, as Claude Code's do. An MCP server's
 * arguments get the path only when it holds no character a shell would read (`sh -c` servers);
 * otherwise the text stays as written and the variable is in the server's environment.
 */
function runnableVariables(key: 'hooks' | 'mcpServers', variables: Readonly<Record<string, string>>): Readonly<Record<string, string>> {
  const project = variables.CLAUDE_PROJECT_DIR;
  return project === undefined || (key === 'mcpServers' && isShellInert(project)) ? variables : withoutProjectDir(variables);
}

function expandAll(value: unknown, variables: Readonly<Record<string, string>>): unknown {
  if (typeof value === 'string') return expandPluginVariables(value, variables);
  if (Array.isArray(value)) return value.map((item) => expandAll(item, variables));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandAll(item, variables)]));
  return value;
}

/**
 * The parts of a Claude Code plugin MewCode has no equivalent for (an executable folder put on
 * PATH, output styles, LSP servers, settings asked of the user): named, so none is dropped silently.
 */
function unsupportedParts(root: string, manifest: unknown): string[] {
  const parts: string[] = [];
  const keys = typeof manifest === 'object' && manifest !== null && !Array.isArray(manifest) ? (manifest as Record<string, unknown>) : {};
  if (statOf(path.join(root, 'bin'))?.isDirectory()) parts.push('bin/ (commands put on PATH)');
  if (statOf(path.join(root, 'output-styles'))?.isDirectory() || keys.outputStyles !== undefined) parts.push('output styles (output-styles/, "outputStyles")');
  if (statOf(path.join(root, '.lsp.json'))?.isFile() || keys.lspServers !== undefined) parts.push('LSP servers (.lsp.json, "lspServers")');
  if (keys.userConfig !== undefined) parts.push('"userConfig"');
  return parts;
}

/** `projectRoot`: the run's project, `${CLAUDE_PROJECT_DIR}` (a listing without a run leaves it as written). */
export function loadBundle(source: ClaudePluginRoot, homeDir: string, projectRoot?: string): ClaudePluginBundle {
  const problems: ClaudePluginProblem[] = [];
  const root = path.resolve(source.root);
  const fallbackName = path.basename(root);
  const info = statOf(root);
  if (!info?.isDirectory()) {
    problems.push({ file: root, message: info ? 'a plugin must be a directory; not loaded' : 'the plugin directory does not exist; not loaded' });
    return notLoaded(source, fallbackName, problems);
  }

  const manifestFile = path.join(root, MANIFEST);
  let manifest: Manifest = { components: {} };
  const read = readJsonFile(manifestFile);
  const manifestNode = read.ok ? read.node : undefined;
  if (read.ok) {
    for (const warning of read.warnings) problems.push({ file: manifestFile, message: warning.startsWith(`${manifestFile}:`) ? `line ${warning.slice(manifestFile.length + 1)}` : warning });
    const parsed = readManifest(read.value, manifestFile, problems);
    if (!parsed) return notLoaded(source, fallbackName, problems);
    manifest = parsed;
  } else if (!read.missing) {
    problems.push({ file: manifestFile, message: `${read.message}; the plugin is not loaded` });
    return notLoaded(source, fallbackName, problems);
  }
  const name = manifest.name ?? fallbackName;
  if (!PLUGIN_NAME.test(name)) {
    problems.push({ file: root, message: `the folder's name "${name}" cannot be a plugin name (letters, digits, "-" and "_"), and no plugin.json names it; not loaded` });
    return notLoaded(source, name, problems);
  }

  // A `--plugin-dir` plugin is known by its own name; an installed one by its `name@marketplace`.
  const id = source.origin === 'plugin-dir' ? name : source.id;
  const variables = { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: pluginDataDir(homeDir, id), ...(projectRoot !== undefined ? { CLAUDE_PROJECT_DIR: projectRoot } : {}) };
  const realRoot = realOf(root);
  /** A path plugin.json names: `./…`, inside the plugin, existing. */
  const resolveGiven = (given: string, key: ComponentKey): string | undefined => {
    if (!given.startsWith('./')) {
      problems.push({ file: manifestFile, message: `"${key}": ${JSON.stringify(given)} must be a relative path starting with "./"; left out` });
      return undefined;
    }
    const full = path.resolve(root, given);
    if (!isPathWithin(root, full) || !isPathWithin(realRoot, realOf(full))) {
      problems.push({ file: manifestFile, message: `"${key}": ${JSON.stringify(given)} leads outside the plugin directory; left out` });
      return undefined;
    }
    if (!statOf(full)) {
      problems.push({ file: full, message: `named by "${key}" in plugin.json, but it does not exist; left out` });
      return undefined;
    }
    return full;
  };
  const defaultPath = (key: ComponentKey): string | undefined => {
    const full = path.join(root, DEFAULTS[key]);
    return statOf(full) ? full : undefined;
  };
  const paths = (key: ComponentKey, replacesDefault: boolean): string[] => {
    const spec = manifest.components[key];
    if (spec?.kind === 'invalid') return [];
    const given = spec?.kind === 'paths' ? spec.paths.flatMap((p) => resolveGiven(p, key) ?? []) : [];
    const fallback = defaultPath(key);
    const list = replacesDefault && spec?.kind === 'paths' ? given : [...(fallback ? [fallback] : []), ...given];
    return [...new Set(list)];
  };

  const commands = paths('commands', true);
  const agents = paths('agents', true);
  // A skills path is a folder of skill folders, or one skill's own folder (marketplace entries
  // list them so: "./skills/xlsx"); one already found in a folder of skill folders counts once.
  const skills: string[] = [];
  const singleSkills: string[] = [];
  for (const dir of paths('skills', false)) {
    if (!statOf(dir)?.isDirectory()) problems.push({ file: dir, message: 'a skills path must be a folder holding one folder per skill, or a skill\'s own folder (with SKILL.md); left out' });
    else if (statOf(path.join(dir, 'SKILL.md'))?.isFile()) singleSkills.push(dir);
    else if (skillFolders(dir).length > 0 || dir === defaultPath('skills')) skills.push(dir);
    else problems.push({ file: dir, message: 'named by "skills" in plugin.json, but it holds no SKILL.md and no folder with one; left out' });
  }
  const ownSkills = singleSkills.filter((dir) => !skills.includes(path.dirname(dir)));
  const rootSkill = skills.length === 0 && ownSkills.length === 0 && statOf(path.join(root, 'SKILL.md'))?.isFile() ? root : undefined;

  const hooks = jsonParts('hooks', paths('hooks', false), manifest, manifestFile, manifestNode, variables, problems);
  const mcpServers = jsonParts('mcpServers', paths('mcpServers', false), manifest, manifestFile, manifestNode, variables, problems);
  const counts = {
    commands: commands.reduce((sum, entry) => sum + markdownFiles(entry, true).length, 0),
    agents: agents.reduce((sum, entry) => sum + markdownFiles(entry, false).length, 0),
    skills: skills.reduce((sum, dir) => sum + skillFolders(dir).length, 0) + ownSkills.length + (rootSkill ? 1 : 0),
    hooks: hooks.reduce((sum, part) => sum + countHandlers(part.value, root), 0),
    mcpServers: new Set(mcpServers.flatMap((part) => Object.keys(part.value))).size,
  };
  const unsupported = unsupportedParts(root, read.ok ? read.value : undefined);
  if (unsupported.length > 0) problems.push({ file: root, message: `these parts are not supported by MewCode and are not used: ${unsupported.join(', ')}` });
  if (!read.ok && Object.values(counts).every((count) => count === 0) && !rootSkill) {
    problems.push({ file: root, message: `not a Claude Code plugin: no ${MANIFEST} and none of ${COMPONENT_KEYS.map((key) => DEFAULTS[key]).join(', ')}` });
  }
  return {
    id,
    name,
    root,
    origin: source.origin,
    loaded: true,
    ...(manifest.version ? { version: manifest.version } : {}),
    ...(manifest.description ? { description: manifest.description } : {}),
    ...(manifest.author ? { author: manifest.author } : {}),
    commands,
    agents,
    skills,
    ...(ownSkills.length > 0 ? { singleSkills: ownSkills } : {}),
    ...(rootSkill ? { rootSkill } : {}),
    hooks,
    mcpServers,
    variables,
    counts,
    problems,
  };
}

/** hooks.json / .mcp.json files and plugin.json's inline object, each read, unwrapped, expanded and checked. */
function jsonParts(
  key: 'hooks' | 'mcpServers',
  files: readonly string[],
  manifest: Manifest,
  manifestFile: string,
  manifestNode: LocatedNode | undefined,
  variables: Readonly<Record<string, string>>,
  problems: ClaudePluginProblem[],
): ClaudePluginPart[] {
  const raw: { file: string; value: unknown; node: LocatedNode; at: (string | number)[] }[] = [];
  for (const file of files) {
    const read = readJsonFile(file);
    if (read.ok) {
      raw.push({ file, value: read.value, node: read.node, at: [] });
      for (const warning of read.warnings) problems.push({ file, message: warning.startsWith(`${file}:`) ? `line ${warning.slice(file.length + 1)}` : warning });
    }
    else problems.push({ file, message: `${read.message}; its ${key === 'hooks' ? 'hooks are' : 'MCP servers are'} not loaded` });
  }
  const spec = manifest.components[key];
  if (spec?.kind === 'paths') for (const inline of spec.inline) raw.push({ file: manifestFile, value: inline.value, node: manifestNode!, at: inline.at });
  const parts: ClaudePluginPart[] = [];
  for (const { file, value, node, at } of raw) {
    // hooks.json is `{ "description"?, "hooks": { <Event>: [...] } }`; .mcp.json is `{ "mcpServers": {...} }`.
    // Either wrapper may be left out (plugin.json's inline objects usually are).
    const wrapped = isRecord(value) && Object.hasOwn(value, key);
    const inner = wrapped ? (value as Record<string, unknown>)[key] : value;
    const base = wrapped ? [...at, key] : at;
    if (!isRecord(inner)) {
      problems.push({ file, message: key === 'hooks' ? 'hooks must be an object of event names (PreToolUse, Stop, …) to matcher groups; not loaded' : 'mcpServers must be an object of server names to servers; not loaded' });
      continue;
    }
    const expanded = expandAll(inner, runnableVariables(key, variables)) as Record<string, unknown>;
    if (key === 'hooks') reportMissingScripts(expanded, file, variables.CLAUDE_PLUGIN_ROOT!, problems);
    const checked = key === 'hooks' ? expanded : serversWithEnvironment(expanded, file, variables, problems);
    parts.push({ file, value: checked, locate: (path) => positionIn(node, [...base, ...path]) });
  }
  return parts;
}

/**
 * A command hook whose script is not in the plugin would fail at every event: it is named with
 * its file here, and the hooks plugin does not load it (types/claude-plugins.ts's missingPluginScript).
 */
function reportMissingScripts(hooks: Record<string, unknown>, file: string, root: string, problems: ClaudePluginProblem[]): void {
  eachCommand(hooks, (command, where) => {
    const missing = missingPluginScript(command, root, (named) => statOf(named) !== undefined);
    if (missing !== undefined) problems.push({ file, message: `${where}: its script ${missing} does not exist; this hook is not loaded` });
  });
}

function eachCommand(hooks: Readonly<Record<string, unknown>>, visit: (command: string, where: string) => void): void {
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, groupIndex) => {
      if (!isRecord(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((handler, handlerIndex) => {
        if (isRecord(handler) && typeof handler.command === 'string') visit(handler.command, `hooks.${event}[${groupIndex}].hooks[${handlerIndex}]`);
      });
    });
  }
}

/**
 * Each server entry must be an object; a stdio server's process gets CLAUDE_PLUGIN_ROOT and
 * CLAUDE_PLUGIN_DATA in its environment (its own `env` wins), as Claude Code exports them.
 */
function serversWithEnvironment(servers: Record<string, unknown>, file: string, variables: Readonly<Record<string, string>>, problems: ClaudePluginProblem[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers)) {
    if (!isRecord(entry)) {
      problems.push({ file, message: `MCP server "${name}" must be an object ({ "command": … } or { "url": … }); not loaded` });
      continue;
    }
    const stdio = entry.command !== undefined || (entry.url === undefined && entry.type === undefined) || entry.type === 'stdio';
    out[name] = stdio && (entry.env === undefined || isRecord(entry.env)) ? { ...entry, env: { ...variables, ...(entry.env as Record<string, unknown> | undefined) } } : entry;
  }
  return out;
}

function countHandlers(hooks: Readonly<Record<string, unknown>>, root: string): number {
  let missing = 0;
  eachCommand(hooks, (command) => {
    if (missingPluginScript(command, root, (named) => statOf(named) !== undefined) !== undefined) missing++;
  });
  let count = -missing;
  for (const groups of Object.values(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups) if (isRecord(group) && Array.isArray(group.hooks)) count += group.hooks.length;
  }
  return count;
}
