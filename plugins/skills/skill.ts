/**
 * One skill as the catalog knows it (S1): the folder's SKILL.md frontmatter, validated.
 * A bad value falls back with a warning; a folder that cannot be a skill is a problem naming its
 * file (K2). The body is not kept: it is re-read from disk at every load (S3).
 */
import { argumentHintOf, toolList } from '../../config/command-files.js';
import { argumentNamesOf, disallowedToolsOf, identifierOf } from '../../config/definition-keys.js';
import { parseFrontmatter } from './frontmatter.js';
import { claudeFlag } from '../../types/claude-boolean.js';
import { frontmatterKeyWarnings } from '../../config/definition-keys.js';

export type SkillMode = 'inline' | 'fork';
export type SkillForkContext = 'none' | 'recent' | 'full';
export type SkillScope = 'user' | 'project';

export interface SkillRoot {
  /** Absolute directory holding one folder per skill. */
  dir: string;
  /** `project` for a root inside the project, or one a project's configuration named (its scripts need workspace trust). */
  scope: SkillScope;
  /** For a project-scope root inside the project: the project's folder, which its skills' files must resolve inside (else the root itself). */
  project?: string;
  /** A Claude Code plugin's skills: its name, the namespace of `plugin:skill`. */
  plugin?: string;
  /** That plugin's `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}`, expanded in the body. */
  variables?: Readonly<Record<string, string>>;
  /** Only this folder of `dir` is a skill (a single-skill plugin: its root holds SKILL.md). */
  only?: string;
  /**
   * The additional directory (`--add-dir`, `permissions.additional_directories`) this root is in:
   * project scope confined to that directory. Workspace trust hashes only the project's own files,
   * so such a skill's `!` lines and hooks never run (additional-roots.ts).
   */
  additional?: string;
  /**
   * The project's subfolder whose nested skills folder this is (`packages/api` for
   * `packages/api/.claude/skills`), found when a file tool touched a file there (nested-roots.ts):
   * its skills are announced in a reminder, never in the stable prompt; their `!` lines and hooks
   * never run (workspace trust hashes the project root's skills folders only).
   */
  nested?: string;
}

export interface Skill {
  name: string;
  description: string;
  /** The skill's folder and its SKILL.md. */
  dir: string;
  file: string;
  root: SkillRoot;
  /** As written (Claude Code's `Read`, `Bash(git:*)` included); empty = no restriction. */
  allowedTools: readonly string[];
  /** `disallowed-tools` as written: deny rules while the skill is active (inline) or for its whole sub-agent (fork). */
  disallowedTools: readonly string[];
  /** `arguments:`: the names of the argument words in order (`$component` is the first). */
  argumentNames: readonly string[];
  mode: SkillMode;
  forkContext: SkillForkContext;
  model?: string;
  /** Claude Code's `agent:` of a fork-mode skill: the sub-agent type the fork runs as (its tools, model, prompt). */
  agent?: string;
  argumentHint?: string;
  /** Claude Code's `disable-model-invocation: true`: not in the catalog, load_skill refuses it; only `/name` runs it. */
  modelInvocable: boolean;
  /** Claude Code's `user-invocable: false`: no `/name` command; the model may still load it. */
  userInvocable: boolean;
  /** Frontmatter keys MewCode does not use (license, metadata, version…), kept as written. */
  extra: Readonly<Record<string, unknown>>;
  /** What was wrong but could be fixed (the skill still loads). */
  warnings: readonly string[];
}

/** Names as commands allow them (types/commands.ts): lower-case letters, digits, `-`, `_`, `:`. */
export const SKILL_NAME = /^[a-z0-9][a-z0-9_:-]*$/;
export const MAX_NAME_LENGTH = 64;
/** Longer descriptions are cut in the catalog (the Agent Skills format's limit). */
export const MAX_DESCRIPTION_LENGTH = 1024;
/** A SKILL.md larger than this is not a skill (it would not fit a prompt either); shared with the trust scan. */
export { MAX_SKILL_FILE_BYTES } from '../../config/skill-files.js';

const KNOWN_KEYS = new Set(['name', 'description', 'allowed_tools', 'allowed-tools', 'mode', 'fork_context', 'model', 'argument-hint', 'argument_hint', 'disable-model-invocation', 'user-invocable', 'agent']);
/** Keys of a SKILL.md this reader knows (used, or read and said to be unused): any other is a warning naming the nearest. */
const SKILL_KEYS: readonly string[] = [...KNOWN_KEYS, 'context', 'disallowed-tools', 'disallowed_tools', 'disallowedTools', 'hooks', 'arguments', 'effort', 'paths', 'shell', 'when_to_use', 'background', 'license', 'metadata', 'version', 'compatibility'];

export type ParsedSkill = { ok: true; skill: Skill } | { ok: false; reason: string };

/** `Read, Grep` or `Bash(git add:*) Read` (Claude Code): one entry per tool, as a command file's list is read. */
export const splitToolList = (value: string): string[] => toolList(value);

/** Lower-cased, spaces and other characters a command name cannot hold turned into `-`. */
export function normaliseName(raw: string): string {
  return raw
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_:-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_:]+|[-_:]+$/g, '');
}

function readTools(data: Record<string, unknown>, warnings: string[]): string[] {
  const key = data.allowed_tools !== undefined ? 'allowed_tools' : data['allowed-tools'] !== undefined ? 'allowed-tools' : undefined;
  if (key === undefined) return [];
  if (data.allowed_tools !== undefined && data['allowed-tools'] !== undefined) warnings.push('both allowed_tools and allowed-tools are set; allowed_tools is used');
  const value = data[key];
  if (typeof value === 'string') return splitToolList(value);
  if (Array.isArray(value)) {
    const tools: string[] = [];
    for (const item of value) {
      if (typeof item === 'string' && item.trim()) tools.push(item.trim());
      else warnings.push(`${key}: ${JSON.stringify(item)} is not a tool name; ignored`);
    }
    return tools;
  }
  if (value !== null) warnings.push(`${key} must be a list of tool names; ignored (no restriction)`);
  return [];
}

function readEnum<T extends string>(data: Record<string, unknown>, key: string, allowed: readonly T[], fallback: T, warnings: string[]): T {
  const value = data[key];
  if (value === undefined || value === null) return fallback;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (text !== undefined && (allowed as readonly string[]).includes(text)) return text as T;
  warnings.push(`${key}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}; using ${fallback}`);
  return fallback;
}

/** Validate one folder's SKILL.md text. `dirName` is the folder's own name. */
export function parseSkill(text: string, where: { dir: string; file: string; dirName: string; root: SkillRoot }): ParsedSkill {
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return { ok: false, reason: parsed.error };
  const { data } = parsed;
  const warnings: string[] = [];
  const lineOf = (key: string): string => (parsed.keyLines[key] === undefined ? '' : `line ${parsed.keyLines[key]}: `);
  // A key nobody reads is said rather than dropped (`hooks:` is the hooks plugin's: skill-hooks.ts).
  for (const { key, message } of frontmatterKeyWarnings(data, SKILL_KEYS)) warnings.push(`${lineOf(key)}${message}`);
  if (!parsed.hasFrontmatter) warnings.push('no frontmatter (--- name, description ---); the folder name is used and there is no description');

  let raw: string;
  if (typeof data.name === 'string' && data.name.trim()) raw = data.name;
  else if (typeof data.name === 'number') raw = String(data.name);
  // No name is Claude Code's ordinary form ("if omitted, uses the directory name"): not a warning.
  else raw = where.dirName;
  let name = raw.trim();
  if (!SKILL_NAME.test(name)) {
    const normalised = normaliseName(name);
    if (!normalised) return { ok: false, reason: `name ${JSON.stringify(raw)} has no letters or digits to make a command name from` };
    warnings.push(`name ${JSON.stringify(raw)} is not a valid skill name (lower-case letters, digits, -, _, :); loaded as "${normalised}"`);
    name = normalised;
  }
  if (name.length > MAX_NAME_LENGTH) return { ok: false, reason: `name "${name.slice(0, 20)}…" is longer than ${MAX_NAME_LENGTH} characters` };
  if (name !== where.dirName && name !== normaliseName(where.dirName)) warnings.push(`name "${name}" differs from its folder "${where.dirName}"; it is loaded as "${name}"`);

  let description = '';
  if (typeof data.description === 'string') description = data.description.replace(/\s+/g, ' ').trim();
  else if (data.description !== undefined && data.description !== null) warnings.push('description must be text; ignored');
  if (!description && parsed.hasFrontmatter) warnings.push('no description: the model cannot tell when to use this skill');
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    warnings.push(`description is ${description.length} characters; the catalog shows the first ${MAX_DESCRIPTION_LENGTH}`);
    description = `${description.slice(0, MAX_DESCRIPTION_LENGTH - 1)}…`;
  }

  const allowedTools = readTools(data, warnings);
  const disallowedTools = disallowedToolsOf(data);
  // Claude Code writes `context: fork` for what MewCode calls `mode: fork`.
  const mode = data.mode === undefined && data.context === 'fork' ? 'fork' : readEnum(data, 'mode', ['inline', 'fork'] as const, 'inline', warnings);
  const forkContext = readEnum(data, 'fork_context', ['none', 'recent', 'full'] as const, 'none', warnings);
  // One word each: printed in notices and sent as a request's model (definition-keys.ts identifierOf).
  const modelField = identifierOf(data, 'model');
  if (modelField.problem !== undefined) warnings.push(`${lineOf('model')}${modelField.problem}`);
  const model = modelField.value !== 'inherit' ? modelField.value : undefined;
  const argumentHint = argumentHintOf(data);
  let agent: string | undefined;
  if (typeof data.agent === 'string' && data.agent.trim()) {
    const agentField = identifierOf(data, 'agent');
    if (agentField.problem !== undefined) return { ok: false, reason: `${lineOf('agent')}${agentField.problem.replace(/; ignored$/, '')}: a fork needs the name of a sub-agent type` };
    if (mode === 'fork') agent = agentField.value;
    else warnings.push('agent: applies only with context: fork (mode: fork); ignored');
  } else if (data.agent !== undefined && data.agent !== null) return { ok: false, reason: 'agent: must be the name of a sub-agent type' };

  // yes/no, on/off, 1/0 too, as Claude Code and the other Claude-format readers take them.
  const flag = (key: string, fallback: boolean): boolean => claudeFlag(data[key], key, fallback, (message) => warnings.push(message));
  const modelInvocable = !flag('disable-model-invocation', false);
  const userInvocable = flag('user-invocable', true);

  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!KNOWN_KEYS.has(key)) extra[key] = value;

  const skill: Skill = {
    name,
    description,
    dir: where.dir,
    file: where.file,
    root: where.root,
    allowedTools,
    disallowedTools,
    argumentNames: argumentNamesOf(data),
    mode,
    forkContext,
    modelInvocable,
    userInvocable,
    ...(model !== undefined ? { model } : {}),
    ...(agent !== undefined ? { agent } : {}),
    ...(argumentHint !== undefined ? { argumentHint } : {}),
    extra,
    warnings,
  };
  return { ok: true, skill };
}

/** The body of a SKILL.md text (frontmatter removed), or an error naming the line. */
export function skillBody(text: string): { ok: true; body: string } | { ok: false; error: string } {
  const parsed = parseFrontmatter(text);
  return parsed.ok ? { ok: true, body: parsed.body.trim() } : { ok: false, error: parsed.error };
}
