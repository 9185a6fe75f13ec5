/**
 * Where command files live and what one holds. Roots, lowest precedence first: `~/.claude/commands`,
 * `~/.mewcode/commands`, `<project>/.claude/commands`, `<project>/.mewcode/commands` — a later
 * root's command replaces an earlier one of the same name (a trusted project wins, as it does for
 * skills; an untrusted one never replaces the user's own command).
 * A file in a subfolder keeps its own name and shows the folder in its description, as Claude Code
 * does ("(project:frontend)"); when two files share a name, the ones in subfolders are `folder:name`.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { COMMAND_DIRECTORIES, MAX_COMMAND_FILE_BYTES, allowedToolsOf, argumentHintOf, commandMarkdownFiles, commandNameParts, hasShellLines, toolList } from '../../config/command-files.js';
import { readProjectTextFile } from '../../config/project-file.js';
import { terminalSafe } from '../../config/terminal-safe.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { expandPluginVariables, withoutProjectDir } from '../../types/claude-plugins.js';
import { readFrontmatter } from '../../sdk/frontmatter.js';
import { claudeFlag } from '../../types/claude-boolean.js';
import { argumentNamesOf, disallowedToolsOf, frontmatterKeyWarnings, identifierOf } from '../../config/definition-keys.js';
import type { ComponentHooks } from '../../types/component-hooks.js';

/** The keys a command file may hold (Claude Code's command and skill keys): any other is a warning naming the nearest. */
const COMMAND_KEYS: readonly string[] = [
  'description', 'argument-hint', 'argument_hint', 'allowed-tools', 'allowed_tools', 'disallowed-tools', 'disallowed_tools', 'disallowedTools',
  'model', 'disable-model-invocation', 'user-invocable', 'effort', 'context', 'agent', 'background', 'hooks', 'arguments', 'when_to_use', 'shell', 'name', 'paths',
];

export type CommandScope = 'user' | 'project';

export interface CommandRoot {
  /** A folder of command files, or (a Claude Code plugin's `commands` path) one `.md` file. */
  dir: string;
  scope: CommandScope;
  /** A Claude Code plugin's commands: its name, the namespace of `/plugin:command`. */
  plugin?: string;
  /** `${CLAUDE_PLUGIN_ROOT}` / `${CLAUDE_PLUGIN_DATA}` of that plugin, expanded in the body and allowed-tools. */
  variables?: Readonly<Record<string, string>>;
}

export interface CommandFile {
  name: string;
  file: string;
  scope: CommandScope;
  /** Subfolders below the root, joined by `:` ('' at the top). */
  namespace: string;
  description: string;
  argumentHint?: string;
  /** `allowed-tools` entries as written (`Bash(git status:*)`, `Read`). */
  allowedTools: string[];
  /** `disallowed-tools` entries as written: deny rules for the command's turn (or its whole sub-agent). */
  disallowedTools: string[];
  /** `arguments:`: the names of the words in order (`$component` is the first). */
  argumentNames: string[];
  model?: string;
  /**
   * `context: fork`: the prompt runs in a sub-agent (the `agent:` type, default general) and its
   * final text is the command's output, as in Claude Code. `agentAt`: file:line of `agent:`.
   */
  fork?: { agent?: string; agentAt: string };
  disableModelInvocation: boolean;
  body: string;
  /**
   * Whether its `` !`command` `` lines may run: always for the user's own files; for a project's,
   * only when workspace trust approves exactly the text read here (the trust scan lists such files).
   */
  mayRunShellLines: boolean;
  /** The Claude Code plugin it comes from (its name is then `plugin:command`). */
  plugin?: string;
  /**
   * The file's text when its frontmatter has `hooks:` that may run (the hooks plugin reads them
   * from it while the command's turn lasts): always the user's own; a project's only when
   * workspace trust approves exactly this text, as for its `!` lines.
   */
  hooksText?: string;
  /** A Claude Code plugin's `${CLAUDE_PLUGIN_ROOT}` and the like, for its hooks' commands. */
  variables?: Readonly<Record<string, string>>;
}

export function commandRoots(homeDir: string, projectRoot: string): CommandRoot[] {
  const user = COMMAND_DIRECTORIES.map((dir): CommandRoot => ({ dir: path.join(homeDir, dir), scope: 'user' }));
  // Started in the home directory: its folders are the user's own (as the trust scan sees them).
  if (path.resolve(projectRoot) === path.resolve(homeDir)) return user;
  return [...user, ...COMMAND_DIRECTORIES.map((dir): CommandRoot => ({ dir: path.join(projectRoot, dir), scope: 'project' }))];
}

/** Re-exported: the trust scan reads `allowed-tools` with the same function. */
export { toolList };

function firstLine(body: string): string {
  return body.split('\n').map((line) => line.trim()).find((line) => line !== '' && !line.startsWith('!`')) ?? '';
}

/** A root's `.md` files: a folder's, or the one file a plugin's `commands` path names. */
async function rootMarkdownFiles(root: CommandRoot): Promise<string[]> {
  if (root.dir.endsWith('.md') && (await stat(root.dir).catch(() => undefined))?.isFile()) return [root.dir];
  return commandMarkdownFiles(root.dir, root.scope === 'user');
}

/** Every command file of every root; a file that cannot be used is a warning naming it. */
export async function loadCommandFiles(roots: readonly CommandRoot[], warn: (message: string) => void, trust?: WorkspaceTrust, hooks?: ComponentHooks): Promise<CommandFile[]> {
  const byName = new Map<string, CommandFile>();
  const loaded: CommandFile[] = [];
  for (const root of roots) {
    for (const file of await rootMarkdownFiles(root)) {
      // The path as warnings show it: one line, whatever the repository named the file.
      const shown = terminalSafe(file);
      const parts = file === root.dir ? commandNameParts(path.dirname(file), file) : commandNameParts(root.dir, file);
      if (!parts) {
        warn(`custom commands: ${shown}: skipped: a command's file and folder names may use only letters, digits, "-", "_" and "." (and start with a letter or digit)`);
        continue;
      }
      // The shared reader of project-supplied files: inside the project, a regular file, bounded.
      const read = readProjectTextFile(file, { maxBytes: MAX_COMMAND_FILE_BYTES, ...(root.scope === 'project' ? { root: path.dirname(path.dirname(root.dir)) } : {}) });
      if (!read.ok) {
        if (!read.missing) warn(`custom commands: ${shown}: skipped: ${read.reason}`);
        continue;
      }
      const parsed = await readFrontmatter(read.text);
      if (!parsed.ok) {
        warn(`custom commands: ${shown}:${parsed.line}: ${parsed.message}; skipped`);
        continue;
      }
      const data = parsed.data;
      const at = (key: string): string => (parsed.keyLines[key] === undefined ? shown : `${shown}:${parsed.keyLines[key]}`);
      for (const { key, message } of frontmatterKeyWarnings(data, COMMAND_KEYS)) warn(`custom commands: ${at(key)}: ${message}`);
      // The project's path is filled in when the command runs, as in every command's text (command.ts).
      const expand = (text: string): string => (root.variables ? expandPluginVariables(text, withoutProjectDir(root.variables)) : text);
      const hint = argumentHintOf(data);
      // `allowed-tools` answers the permission mode's questions for the command's turn: the user's
      // own files may; a project's file only when workspace trust approves exactly the text read
      // here (the trust scan lists it), as for its `!` lines. Otherwise the command still runs, as
      // text that pre-approves nothing.
      const allowedTools = allowedToolsOf(data);
      const approvesTools = root.scope === 'user' || allowedTools.length === 0 || trust?.approves(file, 'commands', read.text) === true;
      if (!approvesTools) {
        warn(`custom commands: ${shown}: its allowed-tools (${allowedTools.join(', ')}) pre-approve nothing until this project is trusted with the file as it is now (the trust notice lists it); the command runs without them`);
      }
      const fork = forkOf(data, at, warn);
      const hooksText = await hooksTextOf(data, read.text, { file, shown, name: parts.at(-1)!, scope: root.scope, ...(root.variables ? { variables: root.variables } : {}) }, warn, trust, hooks);
      // One word: printed in the "Model switched" notice and sent as the request's model.
      const model = identifierOf(data, 'model');
      if (model.problem !== undefined) warn(`custom commands: ${at('model')}: ${model.problem}`);
      const command: CommandFile = {
        name: parts.at(-1)!,
        file,
        scope: root.scope,
        namespace: parts.slice(0, -1).join(':'),
        description: typeof data.description === 'string' && data.description.trim() ? data.description.trim() : firstLine(parsed.body),
        ...(hint !== undefined ? { argumentHint: hint } : {}),
        allowedTools: approvesTools ? allowedTools.map(expand) : [],
        // A restriction: the project's files need no trust for it.
        disallowedTools: disallowedToolsOf(data).map(expand),
        argumentNames: argumentNamesOf(data),
        ...(model.value !== undefined ? { model: model.value } : {}),
        ...(fork ? { fork } : {}),
        disableModelInvocation: claudeFlag(data['disable-model-invocation'], 'disable-model-invocation', false, (message) => warn(`custom commands: ${at('disable-model-invocation')}: ${message}`)),
        body: expand(parsed.body),
        // Asked only of a file that runs something: a text-only command needs no trust (and is not listed).
        mayRunShellLines: root.scope === 'user' || !hasShellLines(read.text) || trust?.approves(file, 'commands', read.text) === true,
        ...(root.plugin ? { plugin: root.plugin } : {}),
        ...(hooksText !== undefined ? { hooksText } : {}),
        ...(root.variables ? { variables: root.variables } : {}),
      };
      loaded.push(command);
    }
  }
  // Same name in different subfolders: each keeps its folder in the name. Same full name in two
  // roots: the later (higher-precedence) root's file wins.
  // A plugin's commands are `plugin:name` (its subfolders as for the user's own), so they never
  // replace the user's or another plugin's.
  const counts = new Map<string, number>();
  const key = (command: CommandFile): string => `${command.plugin ?? ''}\u0000${command.name}`;
  for (const command of loaded) counts.set(key(command), (counts.get(key(command)) ?? 0) + 1);
  for (const command of loaded) {
    const local = command.namespace && (counts.get(key(command)) ?? 0) > 1 ? `${command.namespace}:${command.name}` : command.name;
    const qualified = command.plugin ? `${command.plugin}:${local}` : local;
    const earlier = byName.get(qualified);
    // Until the project is trusted, a repository's file does not take the name of the user's own
    // command: `/review` stays the text the user wrote, not one a clone chose for it.
    if (earlier?.scope === 'user' && !earlier.plugin && command.scope === 'project' && trust !== undefined && !trust.isTrusted()) {
      warn(`custom commands: ${terminalSafe(command.file)}: /${qualified} is also the user's own command (${terminalSafe(earlier.file)}), which wins while this project is not trusted; this file is not used`);
      continue;
    }
    byName.set(qualified, { ...command, name: qualified });
  }
  return [...byName.values()];
}

/**
 * A command file's own `hooks:`: its problems said now (the hooks plugin checks them as a settings
 * file's, naming file, line and key), and the text they are read from when they may run — a
 * project's file only once trust approves its exact text. Undefined: none to run.
 */
async function hooksTextOf(
  data: Readonly<Record<string, unknown>>,
  text: string,
  where: { file: string; shown: string; name: string; scope: CommandScope; variables?: Readonly<Record<string, string>> },
  warn: (message: string) => void,
  trust: WorkspaceTrust | undefined,
  hooks: ComponentHooks | undefined,
): Promise<string | undefined> {
  if (data.hooks === undefined || data.hooks === null) return undefined;
  const label = `custom commands: /${where.name} (${where.shown})`;
  if (!hooks) {
    warn(`${label}: its hooks are not run: this build has no hooks plugin`);
    return undefined;
  }
  for (const message of await hooks.check({ file: where.file, text, scope: where.scope, ...(where.variables ? { variables: where.variables } : {}) })) warn(message);
  if (where.scope === 'project' && trust?.approves(where.file, 'commands', text) !== true) {
    warn(`${label}: its hooks are not run: they need this project trusted with the file as it is now (the trust notice lists it): trust the workspace (mewcode --trust-project, or answer the trust question of an interactive session)`);
    return undefined;
  }
  return text;
}

/** `context: fork` and its `agent:` (Claude Code's skill keys, accepted in command files too). */
function forkOf(data: Record<string, unknown>, at: (key: string) => string, warn: (message: string) => void): CommandFile['fork'] {
  const agentField = identifierOf(data, 'agent');
  if (agentField.problem !== undefined) warn(`custom commands: ${at('agent')}: ${agentField.problem}`);
  const agent = agentField.value;
  if (data.context !== undefined && data.context !== 'fork') warn(`custom commands: ${at('context')}: context: only "fork" is known; the command runs inline`);
  if (data.context !== 'fork') {
    if (agent !== undefined) warn(`custom commands: ${at('agent')}: agent: applies only with context: fork; ignored`);
    return undefined;
  }
  return { ...(agent !== undefined ? { agent } : {}), agentAt: at('agent') };
}

/** "(project)", "(user)", "(project:frontend)": where the command comes from, as Claude Code shows it. */
export function scopeLabel(command: Pick<CommandFile, 'scope' | 'namespace' | 'plugin'>): string {
  if (command.plugin) return `(plugin ${command.plugin}${command.namespace ? `:${command.namespace}` : ''})`;
  return `(${command.scope}${command.namespace ? `:${command.namespace}` : ''})`;
}
