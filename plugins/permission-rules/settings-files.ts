/**
 * Reading the permission settings files (SPEC A6):
 *   ~/.mewcode/settings.yaml            user
 *   <root>/.mewcode/settings.yaml       project (team, committed)
 *   <root>/.mewcode/settings.local.yaml local (personal, git-ignored; "allow always" writes here)
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
 * Workspace trust (SPEC A12): `default_mode` and `additional_directories` from a project-scope
 * file — the shared file, or a `settings.local.yaml` tracked by git (it came with the
 * repository) — apply only when the trust service approves them (then as configured, bypass
 * and `/` included: that is what trusting the project means). While the project is untrusted
 * they are left out silently: the service's one notice lists them. Without a trust service
 * (TOKENS.WorkspaceTrust not bound) the project is untrusted (fail closed), each is reported
 * here, and a local file is checked against git here.
 */
import path from 'node:path';
import { type LocatedMap, type LocatedNode, toPlain } from '../../config/located.js';
import { parseConfigTextCached } from '../../config/parse-cache.js';
import { readProjectTextFile, withinRoot } from '../../config/project-file.js';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permissions.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { RULE_LISTS, type RuleList } from './rule-syntax.js';
import type { Scope } from './rule-set.js';

export const PREFIX = 'permission-rules:';

export type FileScope = Exclude<Scope, 'session'>;

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
  additionalDirectories: string[];
  warnings: string[];
}

export function settingsFilePaths(projectRoot: string, homeDir: string): Record<FileScope, string> {
  return {
    local: path.join(projectRoot, '.mewcode', 'settings.local.yaml'),
    project: path.join(projectRoot, '.mewcode', 'settings.yaml'),
    user: path.join(homeDir, '.mewcode', 'settings.yaml'),
  };
}

const MODE_ALIASES: Readonly<Record<string, PermissionMode>> = { manual: 'default' };
const KEYS = {
  default_mode: 'default_mode',
  defaultMode: 'default_mode',
  additional_directories: 'additional_directories',
  additionalDirectories: 'additional_directories',
} as const;

/** Decides the trust-requiring keys of one file. */
interface TrustGate {
  /** The file belongs to the project (shared, or a local file tracked by git). */
  projectScope: boolean;
  /** Whether a trust-requiring key of a project-scope file applies. */
  approves(key: string, node: LocatedNode): boolean;
  /** Report a refusal here (only when no trust service will list it in its notice). */
  reportsRefusals: boolean;
}

async function trustGate(scope: FileScope, file: string, trust: WorkspaceTrust | undefined, warnings: string[]): Promise<TrustGate> {
  if (trust) {
    const projectScope = scope === 'project' || (scope === 'local' && trust.scopeOf(file) === 'project');
    return { projectScope, reportsRefusals: false, approves: (key, node) => trust.approves(file, `permissions.${key}`, toPlain(node)) };
  }
  let projectScope = scope === 'project';
  if (scope === 'local') {
    const answer = await (await import('../../config/git-tracked.js')).isTrackedByGit(file) /* loaded only when a local file exists */;
    if (answer.warning) warnings.push(`${PREFIX} ${answer.warning}`);
    if (answer.tracked) {
      projectScope = true;
      if (!answer.warning) warnings.push(`${PREFIX} ${file} is tracked by git, so it came with the repository: it counts as project settings, not personal ones`);
    }
  }
  return { projectScope, reportsRefusals: true, approves: () => false };
}

const MAX_SETTINGS_BYTES = 1024 * 1024;

/**
 * Read one settings file. `trust` is the workspace trust service (TOKENS.WorkspaceTrust);
 * undefined means the project is untrusted (fail closed). `projectRoot` holds the project's and
 * the local file to the project (config/project-file.ts); without it they are read like the user's.
 */
export async function readSettingsFile(scope: FileScope, file: string, trust?: WorkspaceTrust, projectRoot?: string): Promise<SettingsFile> {
  const result: SettingsFile = { scope, file, exists: false, rules: [], defaultMode: undefined, additionalDirectories: [], warnings: [] };
  // A repository could link its settings file out of the project, to /dev/zero or a FIFO.
  const read = readProjectTextFile(file, withinRoot(scope === 'user' ? undefined : projectRoot, { maxBytes: MAX_SETTINGS_BYTES }));
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
  const gate = scope === 'user' ? { projectScope: false, reportsRefusals: false, approves: () => true } : await trustGate(scope, file, trust, result.warnings);
  readPermissions(parsed.root, result, gate);
  return result;
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
      readRuleList(key as RuleList, node, out);
      continue;
    }
    const canonical = KEYS[key as keyof typeof KEYS];
    if (canonical === 'default_mode') {
      readDefaultMode(key, node, out, gate);
    } else if (canonical === 'additional_directories') {
      readDirectories(key, node, out, gate);
    } else {
      out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: unknown key (expected allow, ask, deny, default_mode, additional_directories); ignored`);
    }
  }
}

function readRuleList(list: RuleList, node: LocatedNode, out: SettingsFile): void {
  if (node.kind === 'scalar' && node.value === null) return;
  if (node.kind !== 'seq') {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${list}: expected a list of rules such as ["Bash(npm test)"]; ignored`);
    return;
  }
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
        'trust the project (--trust-project, or when an interactive session asks), or set it in ~/.mewcode/settings.yaml or an untracked .mewcode/settings.local.yaml',
    );
  }
  return false;
}

function readDefaultMode(key: string, node: LocatedNode, out: SettingsFile, gate: TrustGate): void {
  const value = node.kind === 'scalar' ? node.value : undefined;
  if (value === null) return;
  const mode = typeof value === 'string' ? (MODE_ALIASES[value] ?? value) : undefined;
  if (mode === undefined || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: must be one of ${PERMISSION_MODES.join(', ')} (got ${JSON.stringify(value ?? node.kind)}); ignored`);
    return;
  }
  if (trusted(key, node, out, gate)) out.defaultMode = mode as PermissionMode;
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
