/**
 * Sub-agent definition files (G1): markdown with YAML frontmatter, in Claude Code's format so
 * `.claude/agents/*.md` works unchanged. Frontmatter: `name`, `description`, `tools`,
 * `disallowedTools` / `disallowed-tools` / `disallowed_tools`, `model`, `hooks` (run by the hooks
 * plugin while a sub-agent of the type runs: runner.ts); the body is the system prompt. Tool lists are read as commands' and skills' `allowed-tools` are (config/command-files.ts):
 * commas, spaces or a YAML list.
 *
 * Sources, lowest first: ~/.claude/agents, ~/.mewcode/agents, <root>/.claude/agents,
 * <root>/.mewcode/agents; a later one wins by name. Project files are used only when workspace
 * trust approves exactly the text read here (they steer what a sub-agent does with its tools).
 * The frontmatter is read as leniently as Claude Code reads it (sdk/frontmatter.ts: many real
 * agent files are not strict YAML). A file even that cannot read is skipped with a warning naming
 * its file and line (K2).
 */
import { readdir, stat } from 'node:fs/promises';
import { expandPluginVariables } from '../../types/claude-plugins.js';
import { fromClaudeToolName, isClaudeOnlyTool } from '../../sdk/claude-tool-names.js';
import path from 'node:path';
import { frontmatterReady, parseFrontmatter } from '../../sdk/frontmatter.js';
import { readProjectTextFile, withinRoot } from '../../config/project-file.js';
import { terminalSafe } from '../../config/terminal-safe.js';
import { identifierOf } from '../../config/definition-keys.js';
import { MAX_AGENT_FILES } from '../../config/trust-scan.js';
import { toolList as splitToolList } from '../../config/command-files.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import type { AgentDirectory } from './definitions-paths.js';
import type { RoleDefinition } from './roles.js';

export interface LoadedDefinitions {
  roles: RoleDefinition[];
  warnings: string[];
  /** The disallow lists as written, to check once the tools are registered (unknownDisallowed). */
  disallowLists: DisallowList[];
}

/** One file's disallow list: where it is (`file:line`), its key as spelled, its entries. */
export interface DisallowList {
  at: string;
  key: string;
  entries: readonly string[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** A definition file is read up to this size; a larger one is skipped. */
export const MAX_DEFINITION_BYTES = 256 * 1024;

/** Read every definition file; later directories win by name. */
export async function loadDefinitions(dirs: readonly AgentDirectory[], trust: WorkspaceTrust | undefined): Promise<LoadedDefinitions> {
  const warnings: string[] = [];
  const byName = new Map<string, RoleDefinition>();
  const disallowLists = new Map<string, DisallowList>();
  await frontmatterReady();
  for (const { dir, project, root, plugin, variables } of dirs) {
    const all = await markdownFiles(dir);
    if (all.length > MAX_AGENT_FILES) warnings.push(`subagents: ${dir}: more than ${MAX_AGENT_FILES} definition files; only the first ${MAX_AGENT_FILES} by name are read`);
    const files = all.slice(0, MAX_AGENT_FILES);
    for (const file of files) {
      const read = readDefinitionFile(file, project ? root : undefined);
      if ('problem' in read) {
        warnings.push(`subagents: ${terminalSafe(file)}: ${read.problem}; skipped`);
        continue;
      }
      const text = read.text;
      if (project && !trust?.approves(file, 'agents', text)) {
        if (!trust) warnings.push(`subagents: ${terminalSafe(file)}: this build has no workspace trust service, so the project's agent definitions are not used`);
        continue;
      }
      const parsed = parseDefinition(file, text);
      if ('error' in parsed) {
        warnings.push(`subagents: ${parsed.error}; skipped`);
        continue;
      }
      // A plugin's agent is `plugin:agent`, its prompt with the plugin's variables filled in.
      const named = plugin ? { ...parsed.role, name: `${plugin}:${parsed.role.name}`, prompt: variables ? expandPluginVariables(parsed.role.prompt, variables) : parsed.role.prompt } : parsed.role;
      // Its own `hooks:` run while a sub-agent of this type runs (a project's file is here only once trust approved this text).
      const role: RoleDefinition = parsed.hasHooks ? { ...named, hooks: { file, text, scope: project ? 'project' : 'user', ...(variables ? { variables } : {}) } } : named;
      byName.set(role.name, role);
      if (parsed.disallowList) disallowLists.set(role.name, parsed.disallowList);
      else disallowLists.delete(role.name);
      warnings.push(...parsed.warnings);
    }
  }
  return { roles: [...byName.values()], warnings, disallowLists: [...disallowLists.values()] };
}

/**
 * Through the shared reader of project-supplied files (config/project-file.ts): only a regular
 * file of sane size is read, without blocking on open (a committed link to /dev/zero or a FIFO
 * must not hang the start), and a project's file must really lie inside the project, with one
 * hard link (a link to a definition elsewhere would steer a sub-agent with text trust never saw
 * in the project).
 */
function readDefinitionFile(file: string, root: string | undefined): { text: string } | { problem: string } {
  const read = readProjectTextFile(file, withinRoot(root, { maxBytes: MAX_DEFINITION_BYTES }));
  return read.ok ? { text: read.text } : { problem: read.reason };
}

/** `*.md` files of a directory, sorted; none when it does not exist. */
async function markdownFiles(dir: string): Promise<string[]> {
  if (dir.endsWith('.md') && (await stat(dir).catch(() => undefined))?.isFile()) return [dir];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.md')).map((e) => path.join(dir, e.name)).sort();
  } catch {
    return [];
  }
}

type Parsed = { role: RoleDefinition; warnings: string[]; disallowList?: DisallowList; hasHooks?: boolean } | { error: string };

/** The spellings of the disallow key Claude Code and MewCode accept, the first one present used. */
const DISALLOW_KEYS = ['disallowedTools', 'disallowed-tools', 'disallowed_tools'] as const;

/** One definition file (`frontmatterReady()` awaited first). Lines in errors count from the file's first line (the opening `---`). */
export function parseDefinition(file: string, text: string): Parsed {
  const parsed = parseFrontmatter(text);
  // The path as warnings show it: one line, whatever the file's name holds.
  const shown = terminalSafe(file);
  if (!parsed.ok) return { error: `${shown}:${parsed.line}: ${parsed.message}` };
  if (!parsed.hasFrontmatter) return { error: `${shown}:1: no frontmatter (the file must start with a --- line, then YAML, then ---)` };
  const at = (key: string): string => (parsed.keyLines[key] === undefined ? shown : `${shown}:${parsed.keyLines[key]}`);
  return parseFields(file, parsed.body, parsed.data, at);
}

function parseFields(file: string, body: string, fields: Record<string, unknown>, at: (key: string) => string): Parsed {
  const warnings: string[] = [];
  const stem = path.basename(file, '.md');
  const written = fields.name ?? stem;
  if (typeof written !== 'string') return { error: `${at('name')}: name: must be text (got ${JSON.stringify(written)})` };
  // As skills do: a name with capitals or spaces (`Test Runner`) is loaded under a normalised one.
  const name = NAME.test(written) ? written : normaliseAgentName(written);
  if (!NAME.test(name)) return { error: `${at('name')}: name: must be letters, digits, '.', '_' or '-' (got ${JSON.stringify(written)})` };
  if (name !== written) warnings.push(`subagents: ${at('name')}: name ${JSON.stringify(written)} is not a valid agent name (letters, digits, '.', '_', '-'); loaded as "${name}"`);
  const description = fields.description ?? '';
  if (typeof description !== 'string') return { error: `${at('description')}: description: must be text` };
  if (fields.model !== undefined && fields.model !== null && typeof fields.model !== 'string') return { error: `${at('model')}: model: must be text (a configured provider or a model name)` };
  // One word: printed in notices and sent as the request's model; anything else is not a model.
  const modelField = identifierOf(fields, 'model');
  if (modelField.problem !== undefined) warnings.push(`subagents: ${at('model')}: ${modelField.problem}`);
  const model = modelField.value;
  const tools = toolList(fields.tools, 'tools');
  if ('error' in tools) return { error: `${at('tools')}: ${tools.error}` };
  const given = DISALLOW_KEYS.filter((key) => fields[key] !== undefined && fields[key] !== null);
  const disallowedKey = given[0] ?? 'disallowedTools';
  if (given.length > 1) warnings.push(`subagents: ${at(given[1]!)}: both ${given.join(' and ')} are set; ${disallowedKey} is used`);
  const disallowed = toolList(fields[disallowedKey], disallowedKey);
  // An unreadable disallow list skips the file: the agent must not run with what it meant to lose.
  if ('error' in disallowed) return { error: `${at(disallowedKey)}: ${disallowed.error}` };
  // A permission pattern (`Bash(git:*)`) cannot narrow a tool list: an allowed entry is left out
  // (narrower), a disallowed entry takes the whole tool away (never wider).
  const allowed = tools.list?.filter((entry) => {
    if (!entry.includes('(')) return true;
    warnings.push(`subagents: ${at('tools')}: tools: "${entry}" has a pattern, which a tool list cannot apply; left out (list the tool by name to allow it)`);
    return false;
  });
  const denied = disallowed.list?.map((entry) => entry.replace(/\(.*$/s, ''));
  const prompt = body.trim();
  return {
    role: {
      name,
      description: description.trim() || '(no description)',
      source: file,
      prompt,
      ...(allowed ? { tools: allowed } : {}),
      ...(denied && denied.length > 0 ? { disallowedTools: denied } : {}),
      ...(model !== undefined ? { model } : {}),
    },
    warnings,
    ...(denied && denied.length > 0 ? { disallowList: { at: at(disallowedKey), key: disallowedKey, entries: denied } } : {}),
    ...(fields.hooks !== undefined && fields.hooks !== null ? { hasHooks: true } : {}),
  };
}

/** Lower-cased, each run of other characters made `-` (`Test Runner` → `test-runner`), as skill names are. */
function normaliseAgentName(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_.]+|[-_.]+$/g, '');
}

/**
 * `tools: Read, Grep, Glob`, `tools: Read Grep Glob` or a YAML list, as Claude Code reads them (and
 * as `allowed-tools` is read). Absent → undefined.
 */
function toolList(value: unknown, key: string): { list: string[] | undefined } | { error: string } {
  if (value === undefined || value === null) return { list: undefined };
  if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) return { list: splitToolList(value) };
  return { error: `${key}: must be a list of tool names (separated by commas or spaces) or a YAML list` };
}

/**
 * The entries of the disallow lists that name no tool of this run (`registered` answers for a
 * registered name): each takes nothing away, which is all it can do — an entry never widens what
 * an agent gets — but it is likely a typo of a tool the author meant to take away. MCP names
 * (their server may connect later), `*` and Claude Code's tools MewCode lacks are not reported.
 */
export function unknownDisallowed(lists: readonly DisallowList[], registered: (name: string) => boolean): string[] {
  const warnings: string[] = [];
  for (const list of lists) {
    for (const entry of list.entries) {
      if (entry === '*' || entry.startsWith('mcp__') || isClaudeOnlyTool(entry) || registered(fromClaudeToolName(entry))) continue;
      warnings.push(`subagents: ${list.at}: ${list.key}: "${entry}" names no tool; it takes nothing away (check the spelling: Claude Code's names are Read, Write, Edit, Bash, Glob, Grep…)`);
    }
  }
  return warnings;
}
