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
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LocatedMap, LocatedNode } from '../../config/located.js';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permissions.js';
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

export async function readSettingsFile(scope: FileScope, file: string): Promise<SettingsFile> {
  const result: SettingsFile = { scope, file, exists: false, rules: [], defaultMode: undefined, additionalDirectories: [], warnings: [] };
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') result.warnings.push(`${PREFIX} cannot read ${file}: ${(error as Error).message}; its permission settings are ignored`);
    return result;
  }
  result.exists = true;
  const { parseConfigText } = await import('../../config/parse-file.js');
  const parsed = parseConfigText(file, text);
  for (const warning of parsed.warnings) result.warnings.push(`${PREFIX} ${warning.replace(/^config: /, '')}`);
  if (parsed.error) {
    result.warnings.push(`${PREFIX} ${parsed.error.replace(/^config: /, '')}; this file's permission settings are ignored`);
    return result;
  }
  readPermissions(parsed.root, result);
  return result;
}

function at(node: LocatedNode): string {
  return `${node.pos.file}:${node.pos.line}:${node.pos.col}`;
}

function readPermissions(root: LocatedMap, out: SettingsFile): void {
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
      readDefaultMode(key, node, out);
    } else if (canonical === 'additional_directories') {
      readDirectories(key, node, out);
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

function readDefaultMode(key: string, node: LocatedNode, out: SettingsFile): void {
  const value = node.kind === 'scalar' ? node.value : undefined;
  if (value === null) return;
  const mode = typeof value === 'string' ? (MODE_ALIASES[value] ?? value) : undefined;
  if (mode === undefined || !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: must be one of ${PERMISSION_MODES.join(', ')} (got ${JSON.stringify(value ?? node.kind)}); ignored`);
    return;
  }
  if (mode === 'bypassPermissions' && out.scope === 'project') {
    // A committed file (e.g. in a cloned repository) must not switch every prompt off.
    out.warnings.push(
      `${PREFIX} ${at(node)}: permissions.${key}: bypassPermissions is not accepted from the project's shared settings; ` +
        'set it in .mewcode/settings.local.yaml or ~/.mewcode/settings.yaml, or pass --permission-mode; ignored',
    );
    return;
  }
  out.defaultMode = mode as PermissionMode;
}

function readDirectories(key: string, node: LocatedNode, out: SettingsFile): void {
  if (node.kind === 'scalar' && node.value === null) return;
  if (out.scope === 'project') {
    // A committed file (e.g. in a cloned repository) must not widen the sandbox (SPEC A1: the
    // sandbox cannot be configured away by the project).
    out.warnings.push(
      `${PREFIX} ${at(node)}: permissions.${key}: additional directories are not accepted from the project's shared settings; ` +
        'set them in .mewcode/settings.local.yaml or ~/.mewcode/settings.yaml; ignored',
    );
    return;
  }
  if (node.kind !== 'seq') {
    out.warnings.push(`${PREFIX} ${at(node)}: permissions.${key}: expected a list of directories; ignored`);
    return;
  }
  for (const item of node.items) {
    if (item.kind === 'scalar' && typeof item.value === 'string' && item.value.trim() !== '') out.additionalDirectories.push(item.value.trim());
    else out.warnings.push(`${PREFIX} ${at(item)}: permissions.${key}: expected a directory path, found ${item.kind === 'scalar' ? JSON.stringify(item.value) : `a ${item.kind === 'seq' ? 'list' : 'mapping'}`}; ignored`);
  }
}
