/**
 * Finds every setting of the project that needs trust (the tables in trust-keys.ts) in the files
 * a repository can bring:
 *
 *   .mewcode.yaml | .mewcode.yml | .mewcode.json | .mewcode/config.*   config (first found)
 *   .mewcode/config.local.*      config
 *   .mewcode/settings.{yaml,yml,json}         permission settings and hooks (every spelling
 *   .mewcode/settings.local.{yaml,yml,json}   found: their readers read them all, settings-files.ts)
 *   .mewcode/hooks.yaml, .mcp.json   whole files (hooks, MCP servers)
 *   .claude/agents/*.md, .mewcode/agents/*.md   whole files (sub-agent definitions)
 *   .claude/commands/**\/*.md, .mewcode/commands/**\/*.md   whole files, only those with a
 *                                `` !`command` `` line, `allowed-tools` or `hooks:` (custom
 *                                commands that run something or pre-approve tools for their
 *                                turn; text-only commands need no trust and are not listed)
 *   .claude/settings.json, .claude/settings.local.json   Claude Code's settings: hooks and
 *                                permissions (as in .mewcode/settings.*) and its plugin settings
 *   .claude/skills/*\/SKILL.md, .agents/skills/*\/SKILL.md, .mewcode/skills/*\/SKILL.md, and
 *   the SKILL.md files of every other skills root that is the project's (skill-scan.ts)
 *                                whole files, only those with a `` !`command` `` line, a
 *                                ```` ```! ```` block or `hooks:`, under the key `skills`
 *
 * plus the code those settings name (trust-code.ts), each file under the key `code` with the
 * sha256 of its content as its value.
 *
 * The `*.local.*` files are the project's like the others: nothing on disk tells a file the user
 * wrote from one that came with a checkout, an archive or a tarball (git not tracking it proves
 * nothing), so what they set that runs code or sends data needs the trust decision too. They
 * keep only their higher precedence. (In the home directory they are the user's own files.)
 *
 * A missing file costs one failed open. Parsing goes through the shared cache, so `loadConfig`
 * does not parse the same text again.
 */
import { readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_DIRECTORIES, MAX_COMMAND_FILE_BYTES, commandAllowedTools, commandMarkdownFiles, commandNameParts, hasShellLines, shellLineCommands } from './command-files.js';
import { LOCAL_SEARCH_PLACES, PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES } from './layers.js';
import { toPlain } from './located.js';
import { parseConfigTextCached } from './parse-cache.js';
import { readProjectTextFile } from './project-file.js';
import { SETTINGS_FILE_NAMES } from './settings-files.js';
import { extraRootsOf, skillsThatRunCode } from './skill-scan.js';
import { frontmatterHookCommands, hasFrontmatterHooks } from './frontmatter-hooks.js';
import { codeFilesOf, describeCodeFile } from './trust-code.js';
import { openCodeCache } from './trust-code-stamps.js';
import { BUILD_CONFIG_KEYS, CLAUDE_SETTINGS_TRUST_PATHS, CONFIG_TRUST_PATHS, SETTINGS_TRUST_PATHS, type TrustPath, findTrustSettings, pluginSectionPaths } from './trust-keys.js';
import { summarize, summarizeCommandFile, summarizeFile, summarizePluginSection } from './trust-summary.js';

export interface ScannedSetting {
  /** Absolute path (as `path.resolve` gives it, not the real path). */
  file: string;
  /** Relative to the project root, `/`-separated: what the user sees and what is hashed. */
  display: string;
  key: string;
  value: unknown;
  summary: string;
  /** A file of code too large to hash: its trust cannot be remembered. */
  unverifiable?: boolean;
}

/** The key under which a file of code a setting names is listed and hashed. */
export const CODE_KEY = 'code';
/** The names importable from a folder Python searches before its standard library (trust-code-python-path.ts). */
export const PYTHON_NAMES_KEY = 'python-names';

export interface ScanResult {
  settings: ScannedSetting[];
  /** The `*.local.*` files found in the project (absolute paths): project scope for trust. */
  localFiles: Set<string>;
  warnings: string[];
}

interface Candidate {
  /** Files tried in order; the first that exists is the one read (as discovery does). */
  files: string[];
  kind: 'config' | 'settings' | 'claude-settings' | 'whole';
  local: boolean;
  /** For whole files: the key shown and hashed. */
  key?: string;
}

export const WHOLE_FILES = { hooks: path.join('.mewcode', 'hooks.yaml'), mcpServers: '.mcp.json' } as const;

/** Directories of sub-agent definitions (`*.md`, each a whole file under the key `agents`). */
export const AGENT_DIRECTORIES = [path.join('.claude', 'agents'), path.join('.mewcode', 'agents')] as const;

/**
 * How many definition files of one agent directory are looked at (by name), here and by the
 * subagents plugin's loader alike: a repository with thousands of them cannot slow every start.
 */
export const MAX_AGENT_FILES = 100;

function markdownFiles(dir: string, warnings: string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
  if (names.length > MAX_AGENT_FILES) warnings.push(`trust: ${dir}: more than ${MAX_AGENT_FILES} agent definition files; only the first ${MAX_AGENT_FILES} by name are looked at (the rest are never used)`);
  return names.slice(0, MAX_AGENT_FILES).map((name) => path.join(dir, name));
}

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function candidates(root: string, rootIsHome: boolean, warnings: string[]): Candidate[] {
  const inRoot = (place: string) => path.join(root, place);
  const inDotDir = (place: string) => path.join(root, '.mewcode', place);
  // When the project is the home directory, `.mewcode/config.*` and `.mewcode/settings.*`
  // are the user's own files (loadConfig reads them once, as user files).
  const projectPlaces = PROJECT_SEARCH_PLACES.filter((place) => !(rootIsHome && place.startsWith('.mewcode/')));
  const list: Candidate[] = [{ files: projectPlaces.map(inRoot), kind: 'config', local: false }];
  // In the home directory these live in ~/.mewcode: the user's own files.
  if (!rootIsHome) {
    list.push(
      { files: LOCAL_SEARCH_PLACES.map(inDotDir), kind: 'config', local: true },
      // Each spelling on its own: the readers read every one that exists, so each is scanned.
      ...SETTINGS_FILE_NAMES.shared.map((name): Candidate => ({ files: [inDotDir(name)], kind: 'settings', local: false })),
      ...SETTINGS_FILE_NAMES.local.map((name): Candidate => ({ files: [inDotDir(name)], kind: 'settings', local: true })),
      // Their hooks, permissions and plugin keys: what MewCode reads of Claude Code's settings files.
      { files: [inRoot(path.join('.claude', 'settings.json'))], kind: 'claude-settings', local: false },
      { files: [inRoot(path.join('.claude', 'settings.local.json'))], kind: 'claude-settings', local: true },
    );
  }
  list.push(
    { files: [inRoot(WHOLE_FILES.hooks)], kind: 'whole', local: false, key: 'hooks' },
    { files: [inRoot(WHOLE_FILES.mcpServers)], kind: 'whole', local: false, key: 'mcpServers' },
  );
  // In the home directory these are the user's own definitions.
  if (!rootIsHome) for (const dir of AGENT_DIRECTORIES) for (const file of markdownFiles(inRoot(dir), warnings)) list.push({ files: [file], kind: 'whole', local: false, key: 'agents' });
  return list;
}

/** Larger files are not read here (nor trusted: whatever a reader finds in them is never approved). */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The first candidate that exists, read as the readers read it (project-file.ts): only a regular
 * file of sane size really inside the project — a committed link to /dev/zero, /dev/stdin or out
 * of the project must not hang the start, and what is not read is never approved. `root` is
 * undefined when the project is the home directory (the files are then the user's own).
 */
function readFirst(files: readonly string[], root: string | undefined): { file: string; text: string } | undefined {
  for (const file of files) {
    const read = readProjectTextFile(file, { maxBytes: MAX_FILE_BYTES, ...(root !== undefined ? { root } : {}) });
    if (read.ok) return { file, text: read.text };
    if (!read.missing) return undefined; // refused: loadConfig and the settings reader cannot use it either
  }
  return undefined;
}

/**
 * `buildKeys`: the top-level config keys the build reads (default: MewCode's own, BUILD_CONFIG_KEYS);
 * every other top-level key of a project config file is listed as a configured plugin's section.
 */
export async function scanProject(projectRoot: string, homeDir: string, buildKeys: ReadonlySet<string> = new Set(BUILD_CONFIG_KEYS)): Promise<ScanResult> {
  const root = path.resolve(projectRoot);
  const rootIsHome = root === path.resolve(homeDir) || realOrResolved(root) === realOrResolved(homeDir);
  const result: ScanResult = { settings: [], localFiles: new Set(), warnings: [] };
  const display = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const projectSkillRoots: string[] = [];

  for (const candidate of candidates(root, rootIsHome, result.warnings)) {
    const found = readFirst(candidate.files, rootIsHome ? undefined : root);
    if (!found) continue;
    if (candidate.local) result.localFiles.add(found.file);
    if (candidate.kind === 'whole') {
      if (found.text.trim() === '') continue;
      const key = candidate.key ?? 'file';
      result.settings.push({ file: found.file, display: display(found.file), key, value: found.text, summary: summarizeFile(key, found.text) });
      continue;
    }
    const parsed = await parseConfigTextCached(found.file, found.text);
    if (parsed.error !== undefined) continue; // the file contributes nothing anywhere
    // Skills folders a project's configuration names are the project's, wherever they point.
    if (candidate.kind === 'config' && !rootIsHome) projectSkillRoots.push(...(extraRootsOf(toPlain(parsed.root)) ?? []));
    const paths: readonly TrustPath[] = candidate.kind === 'config' ? CONFIG_TRUST_PATHS : candidate.kind === 'claude-settings' ? CLAUDE_SETTINGS_TRUST_PATHS : SETTINGS_TRUST_PATHS;
    for (const setting of findTrustSettings(parsed.root, paths)) {
      const value = toPlain(setting.node);
      result.settings.push({ file: found.file, display: display(found.file), key: setting.key, value, summary: summarize(setting.key, value) });
    }
    if (candidate.kind !== 'config') continue;
    for (const setting of findTrustSettings(parsed.root, pluginSectionPaths(parsed.root, buildKeys))) {
      const value = toPlain(setting.node);
      result.settings.push({ file: found.file, display: display(found.file), key: setting.key, value, summary: summarizePluginSection(value) });
    }
  }
  // In the home directory these are the user's own commands.
  if (!rootIsHome) result.settings.push(...(await commandsThatRunCode(root, display)));
  // And its skills; the user's configuration may name a skills folder inside the project, which is
  // the project's too (its files came with the checkout).
  if (!rootIsHome) result.settings.push(...(await skillsThatRunCode({ root, homeDir, projectRoots: projectSkillRoots, userRoots: await userSkillRoots(homeDir) }, display)));
  const codeNaming = result.settings.length > 0;
  for (const code of await codeFilesOf(result.settings, root, result.warnings, codeNaming ? openCodeCache(homeDir, realOrResolved(root)) : undefined)) {
    const unverifiable = code.digest === undefined;
    // A folder Python searches first is listed as the folder (`./`, `srv/`), under a key of its own.
    const where = code.pythonNames ? `${display(code.file) || '.'}/` : display(code.file);
    result.settings.push({ file: code.file, display: where, key: code.pythonNames ? PYTHON_NAMES_KEY : CODE_KEY, value: code.digest ?? `unverifiable:${code.size}`, summary: describeCodeFile(code), ...(unverifiable ? { unverifiable } : {}) });
  }
  return result;
}

/** `skills.extra_roots` of the user's configuration file (`~/.mewcode/config.*`, the first found), when it sets them. */
async function userSkillRoots(homeDir: string): Promise<string[] | undefined> {
  const found = readFirst(USER_SEARCH_PLACES.map((place) => path.join(homeDir, '.mewcode', place)), undefined);
  if (!found) return undefined;
  const parsed = await parseConfigTextCached(found.file, found.text);
  return parsed.error === undefined ? extraRootsOf(toPlain(parsed.root)) : undefined;
}

/**
 * The project's custom command files with a `` !`command` `` line, `allowed-tools` (which
 * pre-approve tools for the command's turn) or their own `hooks:`, each a whole file under the key `commands`, found and read exactly as the custom-commands plugin finds and reads them
 * (command-files.ts), so the text trust approves is the text that runs.
 */
async function commandsThatRunCode(root: string, display: (file: string) => string): Promise<ScannedSetting[]> {
  const found: ScannedSetting[] = [];
  for (const place of COMMAND_DIRECTORIES) {
    const dir = path.join(root, place);
    for (const file of await commandMarkdownFiles(dir, false)) {
      const parts = commandNameParts(dir, file);
      if (!parts) continue; // the plugin skips it (with a warning): it never runs
      const read = readProjectTextFile(file, { maxBytes: MAX_COMMAND_FILE_BYTES, root });
      if (!read.ok) continue;
      const tools = commandAllowedTools(read.text);
      const hooks = hasFrontmatterHooks(read.text) ? frontmatterHookCommands(read.text) : undefined;
      if (!hasShellLines(read.text) && tools.length === 0 && hooks === undefined) continue;
      found.push({ file, display: display(file), key: 'commands', value: read.text, summary: summarizeCommandFile(parts.at(-1)!, shellLineCommands(read.text), tools, hooks) });
    }
  }
  return found;
}
