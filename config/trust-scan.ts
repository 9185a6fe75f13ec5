/**
 * Finds every setting of the project that needs trust (the tables in trust-keys.ts) in the files
 * a repository can bring:
 *
 *   .mewcode.yaml | .mewcode.yml | .mewcode.json | .mewcode/config.*   config (first found)
 *   .mewcode/config.local.*      config, only when tracked by git (else personal)
 *   .mewcode/settings.yaml       permission settings
 *   .mewcode/settings.local.yaml permission settings, only when tracked by git
 *   .mewcode/hooks.yaml, .mcp.json   whole files (hooks, MCP servers)
 *   .claude/agents/*.md, .mewcode/agents/*.md   whole files (sub-agent definitions)
 *
 * A missing file costs one failed open; git is looked at only when a `*.local.*` file exists.
 * Parsing goes through the shared cache, so `loadConfig` does not parse the same text again.
 */
import { closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { LOCAL_SEARCH_PLACES, PROJECT_SEARCH_PLACES } from './layers.js';
import { toPlain } from './located.js';
import { parseConfigTextCached } from './parse-cache.js';
import { CONFIG_TRUST_PATHS, SETTINGS_TRUST_PATHS, type TrustPath, findTrustSettings } from './trust-keys.js';
import { summarize, summarizeFile } from './trust-summary.js';

export interface ScannedSetting {
  /** Absolute path (as `path.resolve` gives it, not the real path). */
  file: string;
  /** Relative to the project root, `/`-separated: what the user sees and what is hashed. */
  display: string;
  key: string;
  value: unknown;
  summary: string;
}

export interface ScanResult {
  settings: ScannedSetting[];
  /** `*.local.*` files that are tracked by git (absolute paths): project scope. */
  trackedLocal: Set<string>;
  /** `*.local.*` files that exist and are personal (absolute paths). */
  personalLocal: Set<string>;
  warnings: string[];
}

interface Candidate {
  /** Files tried in order; the first that exists is the one read (as cosmiconfig does). */
  files: string[];
  kind: 'config' | 'settings' | 'whole';
  local: boolean;
  /** For whole files: the key shown and hashed. */
  key?: string;
}

export const WHOLE_FILES = { hooks: path.join('.mewcode', 'hooks.yaml'), mcpServers: '.mcp.json' } as const;

/** Directories of sub-agent definitions (`*.md`, each a whole file under the key `agents`). */
export const AGENT_DIRECTORIES = [path.join('.claude', 'agents'), path.join('.mewcode', 'agents')] as const;

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((name) => name.endsWith('.md')).sort().map((name) => path.join(dir, name));
  } catch {
    return [];
  }
}

function realOrResolved(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

function candidates(root: string, rootIsHome: boolean): Candidate[] {
  const inRoot = (place: string) => path.join(root, place);
  const inDotDir = (place: string) => path.join(root, '.mewcode', place);
  // When the project is the home directory, `.mewcode/config.*` and `.mewcode/settings.yaml`
  // are the user's own files (loadConfig reads them once, as user files).
  const projectPlaces = PROJECT_SEARCH_PLACES.filter((place) => !(rootIsHome && place.startsWith('.mewcode/')));
  const list: Candidate[] = [
    { files: projectPlaces.map(inRoot), kind: 'config', local: false },
    { files: LOCAL_SEARCH_PLACES.map(inDotDir), kind: 'config', local: true },
    { files: [inDotDir('settings.local.yaml')], kind: 'settings', local: true },
    { files: [inRoot(WHOLE_FILES.hooks)], kind: 'whole', local: false, key: 'hooks' },
    { files: [inRoot(WHOLE_FILES.mcpServers)], kind: 'whole', local: false, key: 'mcpServers' },
  ];
  if (!rootIsHome) list.splice(2, 0, { files: [inDotDir('settings.yaml')], kind: 'settings', local: false });
  // In the home directory these are the user's own definitions.
  if (!rootIsHome) for (const dir of AGENT_DIRECTORIES) for (const file of markdownFiles(inRoot(dir))) list.push({ files: [file], kind: 'whole', local: false, key: 'agents' });
  return list;
}

/** Larger files are not read here (nor trusted: whatever a reader finds in them is never approved). */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The first candidate that exists. Only a regular file of sane size is read: a committed link to
 * /dev/zero or /dev/stdin must not hang the start (what is not read is never approved).
 */
function readFirst(files: readonly string[]): { file: string; text: string } | undefined {
  for (const file of files) {
    let fd: number | undefined;
    try {
      fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      const stat = fstatSync(fd);
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
      return { file, text: readFileSync(fd, 'utf8') };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      return undefined; // unreadable: loadConfig and the settings reader cannot use it either
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  }
  return undefined;
}

export async function scanProject(projectRoot: string, homeDir: string): Promise<ScanResult> {
  const root = path.resolve(projectRoot);
  const rootIsHome = root === path.resolve(homeDir) || realOrResolved(root) === realOrResolved(homeDir);
  const result: ScanResult = { settings: [], trackedLocal: new Set(), personalLocal: new Set(), warnings: [] };
  const display = (file: string) => path.relative(root, file).split(path.sep).join('/');

  for (const candidate of candidates(root, rootIsHome)) {
    const found = readFirst(candidate.files);
    if (!found) continue;
    if (candidate.local) {
      const answer = await (await import('./git-tracked.js')).isTrackedByGit(found.file) /* loaded only when a local file exists */;
      if (answer.warning) result.warnings.push(`trust: ${answer.warning}`);
      if (!answer.tracked) {
        result.personalLocal.add(found.file);
        continue;
      }
      result.trackedLocal.add(found.file);
      // A fail-closed guess (no repository, an index it could not read) already said why.
      if (!answer.warning) result.warnings.push(
        `trust: ${found.file} is tracked by git, so it came with the repository: it counts as project settings, not personal ones ` +
          '(what it sets that runs code or sends data needs the project to be trusted). Keep personal settings in an untracked, git-ignored file.',
      );
    }
    if (candidate.kind === 'whole') {
      if (found.text.trim() === '') continue;
      const key = candidate.key ?? 'file';
      result.settings.push({ file: found.file, display: display(found.file), key, value: found.text, summary: summarizeFile(key, found.text) });
      continue;
    }
    const parsed = await parseConfigTextCached(found.file, found.text);
    if (parsed.error !== undefined) continue; // the file contributes nothing anywhere
    const paths: readonly TrustPath[] = candidate.kind === 'config' ? CONFIG_TRUST_PATHS : SETTINGS_TRUST_PATHS;
    for (const setting of findTrustSettings(parsed.root, paths)) {
      const value = toPlain(setting.node);
      result.settings.push({ file: found.file, display: display(found.file), key: setting.key, value, summary: summarize(setting.key, value) });
    }
  }
  return result;
}
