/**
 * Reading the permission settings files (A6), each as settings.yaml, settings.yml or settings.json
 * (config/settings-files.ts: the one list every reader uses; every spelling found is read):
 *   ~/.mewcode/settings.*               user
 *   <root>/.mewcode/settings.*          project (team, committed)
 *   <root>/.mewcode/settings.local.*    local (highest of the files; still the project's for trust)
 *   ~/.mewcode/approvals/<project>.yaml local: the user's "allow always" answers for this project
 * and in each scope after MewCode's, Claude Code's own file (~/.claude/settings.json,
 * <root>/.claude/settings.json, <root>/.claude/settings.local.json), read the same way, with
 * the same trust rules; its keys MewCode has no equivalent for are collected (`ignoredClaudeKeys`)
 * for one notice.
 *
 * ```yaml
 * permissions:
 *   allow: ["Bash(npm run test:*)", "Read(src/**)"]
 *   ask:   ["Bash(git push *)"]
 *   deny:  ["Read(./.env)"]
 *   default_mode: acceptEdits        # default | acceptEdits | plan | bypassPermissions
 *   additional_directories: [../docs]
 * ```
 * Claude Code's spellings `defaultMode` and `additionalDirectories` are accepted too.
 * Problems are returned as warnings naming file:line:col and the key or rule (K2); a file that
 * does not parse contributes nothing and the other files still load. The YAML parser is loaded
 * only when a file exists.
 *
 * Workspace trust (A12): `allow`, `default_mode` and `additional_directories` from a
 * project file — the shared file or `settings.local.yaml` (nothing tells a file the user wrote
 * from one a checkout or an archive brought, so both are the project's) — apply only when the
 * trust service approves them (then as configured, bypass and `/` included: that is what
 * trusting the project means). `deny` and `ask` always apply: they only take permissions away.
 * While the project is untrusted the others are left out silently: the service's one notice
 * lists them. Without a trust service (TOKENS.WorkspaceTrust not bound) the project is untrusted
 * (fail closed) and each is reported here. The user's own files (`~/.mewcode/settings.yaml`, the
 * saved approvals) need no trust.
 */
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { formatPos, type LocatedMap, type LocatedNode, toPlain } from '../../config/located.js';
import { parseConfigTextCached } from '../../config/parse-cache.js';
import { CLAUDE_SETTINGS_KEYS_READ, isClaudeSettingsFile, MEWCODE_SETTINGS_KEYS, withClaudeSettingsFile } from '../../config/settings-files.js';
import { nodeCrypto } from '../../sdk/lazy-builtin.js';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permissions.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { RULE_LISTS, type RuleList } from './rule-syntax.js';
import type { Scope } from './rule-set.js';
import { readConfigFile } from '../../config/config-file.js';
import { type FileKey, unknownKeyWarnings } from '../../config/unknown-keys.js';
import { terminalSafe } from '../../config/terminal-safe.js';

export const PREFIX = 'permission-rules:';

export type FileScope = Exclude<Scope, 'session' | 'managed'>;

export interface RawRule {
  list: RuleList;
  value: unknown;
  /** file:line:col */
  where: string;
}

export interface SettingsFile {
  scope: FileScope;
  file: string;
  exists: boolean;
  rules: RawRule[];
  defaultMode: PermissionMode | undefined;
  /** Where `disableBypassPermissionsMode: disable` (or disable_bypass_mode: true) is set, as file:line:col. */
  disableBypassMode?: string;
  /** `defaultMode: dontAsk` (Claude Code's): default mode, every question answered no (defaultMode is then `default`). */
  dontAsk?: boolean;
  additionalDirectories: string[];
  warnings: string[];
  /** A Claude Code settings file's top-level keys MewCode has no equivalent for (`env`, `model`…). */
  ignoredClaudeKeys: string[];
}

/** Each scope's files, in reading order, Claude Code's last (config/settings-files.ts). */
export function settingsFilePaths(projectRoot: string, homeDir: string): Record<FileScope, string[]> {
  return {
    local: withClaudeSettingsFile('local', projectRoot, homeDir),
    project: withClaudeSettingsFile('project', projectRoot, homeDir),
    user: withClaudeSettingsFile('user', projectRoot, homeDir),
  };
}

/**
 * Where the user's "allow always" answers for one project are kept: in the user's own directory
 * (a project file would need the project's trust, and its rules could not unlock a protected
 * path), one file per project, named by its real path made into one file name.
 */
export function approvalsFile(projectRoot: string, homeDir: string): string {
  let real = path.resolve(projectRoot);
  try {
    real = realpathSync(real);
  } catch {
    // A project that does not exist yet: its path as given.
  }
  let name = encodeURIComponent(real);
  // File names are limited to 255 bytes: a long path keeps its end and a hash of the whole.
  if (name.length > 200) name = `${name.slice(-150)}-${nodeCrypto().createHash('sha256').update(real).digest('hex').slice(0, 16)}`;
  return path.join(homeDir, '.mewcode', 'approvals', `${name}.yaml`);
}

const MODE_ALIASES: Readonly<Record<string, PermissionMode>> = { manual: 'default' };
const KEYS = {
  default_mode: 'default_mode',
  defaultMode: 'default_mode',
  additional_directories: 'additional_directories',
  additionalDirectories: 'additional_directories',
  disable_bypass_mode: 'disable_bypass_mode',
  disableBypassPermissionsMode: 'disable_bypass_mode',
} as const;

/** Decides the trust-requiring keys of one file. */
interface TrustGate {
  /** The file belongs to the project (the shared or the local file). */
  projectScope: boolean;
  /** Whether a trust-requiring key of a project-scope file applies. */
  approves(key: string, node: LocatedNode): boolean;
  /** Report a refusal here (only when no trust service will list it in its notice). */
  reportsRefusals: boolean;
}

function trustGate(file: string, trust: WorkspaceTrust | undefined): TrustGate {
  if (trust) {
    // scopeOf says `user` only for the user's own directory (the project being the home directory).
    const projectScope = trust.scopeOf(file) !== 'user';
    return { projectScope, reportsRefusals: false, approves: (key, node) => trust.approves(file, `permissions.${key}`, toPlain(node)) };
  }
  return { projectScope: true, reportsRefusals: true, approves: () => false };
}

const USER_GATE: TrustGate = { projectScope: false, reportsRefusals: false, approves: () => true };


/**
 * Read one settings file. `trust` is the workspace trust service (TOKENS.WorkspaceTrust);
 * undefined means the project is untrusted (fail closed). `projectRoot` holds the project's and
 * the local file to the project (config/project-file.ts); without it they are read like the user's.
 * `owner: 'user'` marks a file of the user's own directory read at a project scope (the saved
 * approvals): it needs no trust, and may be a link like any file of the user's.
 */
export async function readSettingsFile(scope: FileScope, file: string, trust?: WorkspaceTrust, projectRoot?: string, owner?: 'user'): Promise<SettingsFile> {
  const result: SettingsFile = { scope, file, exists: false, rules: [], defaultMode: undefined, additionalDirectories: [], warnings: [], ignoredClaudeKeys: [] };
  // A repository could link its settings file out of the project, to /dev/zero or a FIFO.
  const read = readConfigFile(file, scope === 'user' || owner === 'user' ? undefined : projectRoot);
  if (!read.ok) {
    if (!read.missing) result.warnings.push(`${PREFIX} cannot read ${file}: ${read.reason}; its permission settings are ignored`);
    return result;
  }
  const text = read.text;
  result.exists = true;
  const parsed = await parseConfigTextCached(file, text);
  for (const warning of parsed.warnings) result.warnings.push(`${PREFIX} ${warning.replace(/^config: /, '')}`);
  if (parsed.error) {
    result.warnings.push(`${PREFIX} ${parsed.error.replace(/^config: /, '')}; this file's permission settings are ignored`);
    return result;
  }
  const gate = scope === 'user' || owner === 'user' ? USER_GATE : trustGate(file, trust);
  readPermissions(parsed.root, result, gate);
  if (isClaudeSettingsFile(file)) result.ignoredClaudeKeys = [...parsed.root.entries.keys()].filter((key) => !(CLAUDE_SETTINGS_KEYS_READ as readonly string[]).includes(key));
  // This reader reads every one of MewCode's settings files at every start: it names their typos.
  else result.warnings.push(...unknownKeyWarnings('settings:', fileKeysOf(parsed.root), KNOWN_SETTINGS_KEYS));
  return result;
}

const KNOWN_SETTINGS_KEYS: ReadonlySet<string> = new Set(MEWCODE_SETTINGS_KEYS);

function fileKeysOf(root: LocatedMap): FileKey[] {
  return [...root.entries].map(([key, node]) => ({ key, at: formatPos(root.keyPos?.get(key) ?? node.pos) }));
}

function at(node: LocatedNode): string {
  return `${node.pos.file}:${node.pos.line}:${node.pos.col}`;
}

function readPermissions(root: LocatedMap, out: SettingsFile, gate: TrustGate): void {
  const section = root.entries.get('permissions');
  if (section === undefined || (section.kind === 'scalar' && section.value === null)) return;
  if (section.kind !== 'map') {
    out.warnings.push(`${PREFIX} ${at(section)}: permissions: expected a mapping with allow, ask, deny, default_mode, additional_directories; ignored`);
    return;
  }
  for (const [key, node] of section.entries) {
    if ((RULE_LISTS as readonly string[]).includes(key)) {
      readRuleList(key as RuleList, node, out, gate);
      continue;
    }
    const canonical = KEYS[key as keyof typeof KEYS];
    if (canonical === 'default_mode') {
      readDefaultMode(key, node, out, gate);
    } else if (canonical === 'additional_directories') {
      readDirectories(key, node, out, gate);
    } else if (canonical === 'disable_bypass_mode') {
      readDisableBypass(key, node, out);
    } else {
      out.warnings.push(`${PREFIX} ${at(node)}: permissions.${terminalSafe(key)}: unknown key (expected allow, ask, deny, default_mode, additional_directories, disable_bypass_mode); ignored`);
    }
  }
}

function readRuleList(list: RuleList, node: LocatedNode, out: SettingsFile, gate: TrustGate): void {
  if (node.kind === 'scalar' && node.value === null) return;
  if (node.kind !== 'seq') {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${list}: expected a list of rules such as ["Bash(npm test)"]; ignored`);
    return;
  }
  // An allow rule grants: a repository's `Bash` or `mcp__<your server>__*` must not run anything
  // before the user trusts it. Deny and ask rules only take permissions away: always applied.
  if (list === 'allow' && !trusted(list, node, out, gate)) return;
  for (const item of node.items) {
    out.rules.push({ list, value: item.kind === 'scalar' ? item.value : item.kind === 'seq' ? [] : {}, where: at(item) });
  }
}

/**
 * A valid trust-requiring value of a project-scope file applies only when the gate approves it
 * (checked after validation, so a typo is reported as a typo whatever the trust).
 */
function trusted(key: string, node: LocatedNode, out: SettingsFile, gate: TrustGate): boolean {
  if (!gate.projectScope || gate.approves(key, node)) return true;
  if (gate.reportsRefusals) {
    out.warnings.push(
      `${PREFIX} ${at(node)}: permissions.${key}: not applied: this project's settings are not trusted (a repository controls this file); ` +
        'trust the project (--trust-project, or when an interactive session asks), or set it in ~/.mewcode/settings.yaml',
    );
  }
  return false;
}

function readDefaultMode(key: string, node: LocatedNode, out: SettingsFile, gate: TrustGate): void {
  const value = node.kind === 'scalar' ? node.value : undefined;
  if (value === null) return;
  // `dontAsk` (Claude Code's, as --permission-mode takes it): the default mode, nobody asked.
  const dontAsk = value === 'dontAsk';
  const mode = typeof value === 'string' ? (dontAsk ? 'default' : (MODE_ALIASES[value] ?? value)) : undefined;
  if (mode === undefined || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: must be one of ${[...PERMISSION_MODES, 'dontAsk'].join(', ')} (got ${JSON.stringify(value ?? node.kind)}); ignored`);
    return;
  }
  if (!trusted(key, node, out, gate)) return;
  out.defaultMode = mode as PermissionMode;
  if (dontAsk) out.dontAsk = true;
}

/**
 * Claude Code's `disableBypassPermissionsMode: "disable"` (or MewCode's `disable_bypass_mode: true`),
 * honoured at any level as in Claude Code: it only takes a mode away, so a project's file needs
 * no trust for it. The kernel runs bypassPermissions as default while any file sets it.
 */
function readDisableBypass(key: string, node: LocatedNode, out: SettingsFile): void {
  const value = node.kind === 'scalar' ? node.value : undefined;
  if (value === null || value === false) return;
  if (value === true || value === 'disable') out.disableBypassMode = at(node);
  else out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: expected "disable" (or true, or false); ignored`);
}

function readDirectories(key: string, node: LocatedNode, out: SettingsFile, gate: TrustGate): void {
  if (node.kind === 'scalar' && node.value === null) return;
  if (node.kind !== 'seq') {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: expected a list of directories; ignored`);
    return;
  }
  if (!trusted(key, node, out, gate)) return;
  for (const item of node.items) {
    if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') out.additionalDirectories.push(item.value.trim());
    else out.warnings.push(`${PREFIX} ${at(item)}: permissions.${key}: expected a directory path, found ${item.kind === 'scalar' ? JSON.stringify(item.value) : `a ${item.kind === 'seq' ? 'list' : 'mapping'}`}; ignored`);
  }
}
