/**
 * `mewcode plugin add|remove|list`: MewCode plugins from npm (a name or any npm spec, a package
 * folder or tarball) or a plugin file, installed where a run looks for them and named in the
 * right configuration file's `plugins:`.
 *
 * - User scope (default): installed into `~/.mewcode` (its own package.json, made here) and named
 *   in `~/.mewcode/config.yaml`. Project scope (`--project`): the project's package.json (as a
 *   dev dependency) and `.mewcode.yaml`; such plugins load once the project is trusted.
 * - One MewCode: plugins declare `mewcode` as a peer dependency. npm would install a second copy
 *   to satisfy it, so installs skip peers (`--legacy-peer-deps`) and `node_modules/mewcode` is a
 *   link to the MewCode that is running, so a plugin's `import 'mewcode/sdk'` loads the very
 *   modules the CLI runs (one inversify, one tapable). A project that has its own `mewcode`
 *   keeps it. Local folders are installed as packed copies (`--install-links`): a link would make
 *   the plugin resolve its imports from its own folder instead.
 * - A plugin is loaded once before it is named in configuration: one that cannot be imported or
 *   exports no plugin is uninstalled again and nothing is changed.
 * - Under the organisation's `allow_managed_plugins_only` (or managed settings that cannot be read)
 *   `add` refuses before npm runs anything: installing runs the package's scripts and the load
 *   check runs its code, and no run here would load it.
 */
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { addListEntry, readListNames, removeListEntry } from '../config/edit-list.js';
import { PROJECT_SEARCH_PLACES, USER_SEARCH_PLACES } from '../config/layers.js';
import { terminalSafe } from '../config/terminal-safe.js';
import { ConfigurationError } from '../kernel/configuration-error.js';
import { loadExternalPlugins } from '../kernel/external-plugins.js';
import { loadManaged } from '../kernel/managed-enforcement.js';
import { resolvePluginSet } from '../kernel/plugin-set.js';
import type { MewcodePlugin } from '../types/plugin.js';
import { runningMewcodeRoot } from '../kernel/running-mewcode.js';
import { hostProgramEnv } from '../types/host-path.js';
import { isPathStrictlyWithin } from '../types/path-within.js';
import type { ParsedCommand } from './cli-args.js';
import type { ClaudePluginCommand } from './claude-plugin-command.js';
import { messageLines } from '../types/notice-line.js';

type PluginCommand = Extract<ParsedCommand, { kind: 'plugin' }>;
type Scope = 'user' | 'project';

export interface PluginCommandDeps {
  homeDir: string;
  /** For workspace trust (MEWCODE_TRUST_PROJECT) in `list`; default process.env. */
  env?: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  /** The build's own plugins (a custom build's list; default the built-in set): an added plugin must fit among them. */
  buildPlugins?: readonly MewcodePlugin[];
}

const USER_MANIFEST = { name: 'mewcode-user-plugins', private: true, description: 'MewCode plugins installed with `mewcode plugin add`' };
const NPM_FLAGS = ['--no-audit', '--no-fund', '--legacy-peer-deps', '--install-links'];
/** What `npm pack` writes and `npm install` takes as a package: a gzipped or plain tar file. */
const PACKED_PACKAGE = /\.(?:tgz|tar\.gz|tar)$/i;

export async function runPluginCommand(
  command: PluginCommand,
  deps: PluginCommandDeps = defaultDeps(),
): Promise<number> {
  try {
    if (command.action === 'list') return await listPlugins(command.cwd, deps);
    if (command.action === 'add') {
      const refusal = await managedRefusal(deps.env ?? process.env);
      if (refusal !== undefined) {
        deps.err(`mewcode: plugin add: ${terminalSafe(refusal)}\n`);
        return 2;
      }
      return await addPlugin(command.target, command.scope, command.cwd, deps);
    }
    if (command.action === 'remove') return await removePlugin(command.target, command.scope, command.cwd, deps);
    const { runClaudePluginCommand } = await import('./claude-plugin-command.js');
    // add and remove are handled above (one variant with a two-valued action, so TS cannot narrow it away).
    return await runClaudePluginCommand(command as ClaudePluginCommand, deps);
  } catch (error) {
    const what = command.action === 'marketplace' ? `marketplace ${command.verb}` : command.action;
    deps.err(`mewcode: plugin ${what}: ${terminalSafe((error as Error).message ?? String(error))}\n`);
    return 1;
  }
}

/** Why the organisation's managed settings forbid adding a plugin here, or undefined. */
async function managedRefusal(env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    const only = (await loadManaged(undefined, env)).managedPluginsOnly;
    if (only === undefined) return undefined;
    return `the organisation's managed settings (${only.where}: allow_managed_plugins_only) allow only the build's and the managed plugins, so a plugin added here would never load; nothing was installed or changed`;
  } catch (error) {
    if (error instanceof ConfigurationError) return `${error.message}; nothing was installed or changed`;
    throw error;
  }
}

async function addPlugin(spec: string, scope: Scope, cwd: string, deps: PluginCommandDeps): Promise<number> {
  const dir = installDir(scope, cwd, deps.homeDir);
  const file = configFile(scope, cwd, deps.homeDir);
  const local = path.resolve(cwd, spec.startsWith('~/') ? path.join(deps.homeDir, spec.slice(2)) : spec);
  const pathLike = /^(?:\.{1,2}(?:\/|$)|\/|~\/)/.test(spec);
  if (pathLike && !existsSync(local)) throw new Error(`nothing at ${local}`);

  // A plugin file is named as it is: nothing to install. A packed package (`npm pack`) is installed.
  if (pathLike && statSync(local).isFile() && !PACKED_PACKAGE.test(local)) {
    const entry = scope === 'user' || !isPathStrictlyWithin(cwd, local) ? local : `./${path.relative(cwd, local).split(path.sep).join('/')}`;
    await checkLoads(entry, [scope === 'user' ? path.dirname(local) : cwd], deps);
    return report(await addListEntry(file, 'plugins', entry), entry, undefined, file, scope, deps);
  }

  if (scope === 'user') await prepareUserDir(dir);
  else if (!existsSync(path.join(dir, 'package.json'))) {
    throw new Error(`${dir} has no package.json: run \`npm init\` there first, or add the plugin for yourself (without --project)`);
  }
  const before = dependencyNames(dir);
  const install = await npm(['install', scope === 'project' ? '--save-dev' : '--save', ...NPM_FLAGS, pathLike ? local : spec], dir);
  if (install.code !== 0) throw new Error(`npm install ${spec} failed in ${dir}:\n${lastLines(install.stderr)}`);
  const name = dependencyNames(dir).find((n) => !before.includes(n)) ?? packageNameOf(pathLike ? folderPackageName(local) : spec, dir);
  if (!name) throw new Error(`npm installed ${spec}, but its package name could not be found in ${path.join(dir, 'package.json')}`);
  await linkRunningMewcode(dir, scope);
  try {
    await checkLoads(name, [dir], deps);
  } catch (error) {
    if (!before.includes(name)) await npm(['uninstall', ...NPM_FLAGS, name], dir);
    throw error;
  }
  return report(await addListEntry(file, 'plugins', name), name, installedVersion(dir, name), file, scope, deps);
}

async function removePlugin(name: string, scope: Scope, cwd: string, deps: PluginCommandDeps): Promise<number> {
  const dir = installDir(scope, cwd, deps.homeDir);
  const file = configFile(scope, cwd, deps.homeDir);
  const listed = await removeListEntry(file, 'plugins', name);
  const installed = dependencyNames(dir).includes(name);
  if (installed) {
    const r = await npm(['uninstall', ...NPM_FLAGS, name], dir);
    if (r.code !== 0) throw new Error(`npm uninstall ${name} failed in ${dir}:\n${lastLines(r.stderr)}`);
  }
  if (!listed && !installed) throw new Error(`no plugin named ${name} in ${file}${scope === 'user' ? ' (a project plugin? add --project)' : ''}`);
  deps.out(`Removed ${terminalSafe(name)}${listed ? ` from plugins: in ${file}` : ''}${installed ? `${listed ? ' and' : ''} from ${path.join(dir, 'node_modules')}` : ''}.\n`);
  return 0;
}

/** Both kinds: MewCode's own plugins (npm packages, plugin files), then the installed Claude Code plugins. */
async function listPlugins(cwd: string, deps: PluginCommandDeps): Promise<number> {
  const rows: string[] = [];
  for (const scope of ['user', 'project'] as const) {
    const file = configFile(scope, cwd, deps.homeDir);
    const dir = installDir(scope, cwd, deps.homeDir);
    for (const name of await readListNames(file, 'plugins')) {
      const isPath = /^(?:\.{1,2}\/|\/)/.test(name);
      const version = isPath ? undefined : installedVersion(dir, name);
      // Where a run looks for it: the file, or the package folder npm installed it into.
      const place = isPath ? path.resolve(dir, name) : path.join(dir, 'node_modules', name);
      const found = isPath ? (existsSync(place) ? 'file' : 'missing file') : version ? `npm ${version}` : 'not installed';
      const where = `${found} ${terminalSafe(place)}`;
      rows.push(`${terminalSafe(name)}\t${scope}${scope === 'project' ? ' (loads once the project is trusted)' : ''}\t${where}`);
    }
  }
  deps.out(rows.length === 0 ? 'No MewCode plugins are configured. Add one with `mewcode plugin add <npm package | path>`.\n' : `${rows.join('\n')}\n`);
  const { claudePluginRows } = await import('./claude-plugin-command.js');
  const claude = await claudePluginRows(cwd, deps.homeDir, deps.env ?? process.env);
  deps.out(claude.rows.length === 0 ? 'No Claude Code plugins are installed. Install one with `mewcode plugin install <plugin>@<marketplace>`.\n' : `${claude.rows.join('\n')}\n`);
  for (const warning of claude.warnings) deps.err(messageLines('mewcode: warning: ', terminalSafe(warning)));
  return 0;
}

/** The terminal and home; `buildPlugins` a custom build's list. */
export function defaultDeps(buildPlugins?: readonly MewcodePlugin[]): PluginCommandDeps {
  return { homeDir: os.homedir(), out: (t) => void process.stdout.write(t), err: (t) => void process.stderr.write(t), ...(buildPlugins ? { buildPlugins } : {}) };
}

function report(added: boolean, name: string, version: string | undefined, file: string, scope: Scope, deps: PluginCommandDeps): number {
  const what = `${terminalSafe(name)}${version ? ` ${version}` : ''}`;
  deps.out(added ? `Added ${what} to plugins: in ${file}.\n` : `${what} is installed; plugins: in ${file} already names it.\n`);
  if (scope === 'project') deps.out("A project's plugins load once you trust the project (the trust question, or --trust-project).\n");
  return 0;
}

/**
 * Loads the plugin as a run would and places it among the build's plugins as a run would; throws
 * with the loader's own words when any of its files cannot load or a run would refuse it (a
 * built-in plugin's name without `replaces:`), so nothing every run then skips is written down.
 */
async function checkLoads(spec: string, from: string[], deps: PluginCommandDeps): Promise<void> {
  const failures: string[] = [];
  const warnings: string[] = [];
  const loaded = await loadExternalPlugins([{ spec, from }], (_spec, message) => failures.push(message), (message) => warnings.push(message));
  if (loaded.length === 0 || failures.length > 0) throw new Error(failures.join('; ') || `${spec} did not load`);
  // The build's plugins come with the program (bin/cli.ts runs `plugin add` through main): a
  // caller without them (a test of this module) checks the loading only.
  if (deps.buildPlugins !== undefined) {
    resolvePluginSet(deps.buildPlugins, loaded.map(({ plugin }) => plugin), [], (message) => warnings.push(message), new Set(), {
      refuse: (_plugin, message) => failures.push(message),
    });
  }
  if (failures.length > 0) throw new Error(failures.join('; '));
  for (const warning of warnings) deps.err(messageLines('mewcode: warning: ', terminalSafe(warning)));
}

function installDir(scope: Scope, cwd: string, homeDir: string): string {
  return scope === 'user' ? path.join(homeDir, '.mewcode') : cwd;
}

/** The file a run reads for this scope: the existing one, else the first place a run looks. */
function configFile(scope: Scope, cwd: string, homeDir: string): string {
  const [dir, places] = scope === 'user' ? [path.join(homeDir, '.mewcode'), USER_SEARCH_PLACES] : [cwd, PROJECT_SEARCH_PLACES];
  const existing = places.map((place) => path.join(dir, place)).find((candidate) => existsSync(candidate));
  return existing ?? path.join(dir, places[0]);
}

async function prepareUserDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const manifest = path.join(dir, 'package.json');
  if (!existsSync(manifest)) await writeFile(manifest, `${JSON.stringify(USER_MANIFEST, null, 2)}\n`);
}

function readManifest(dir: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

function dependencyNames(dir: string): string[] {
  const manifest = readManifest(dir) ?? {};
  return Object.keys({ ...(manifest.dependencies as object | undefined), ...(manifest.devDependencies as object | undefined) });
}

function installedVersion(dir: string, name: string): string | undefined {
  const version = readManifest(path.join(dir, 'node_modules', name))?.version;
  return typeof version === 'string' ? version : undefined;
}

/** The name in a package folder's package.json (a tarball's is found by what the install added). */
function folderPackageName(folder: string): string | undefined {
  const name = statSync(folder).isDirectory() ? readManifest(folder)?.name : undefined;
  return typeof name === 'string' ? name : undefined;
}

/** `pkg`, `pkg@1.2`, `@scope/pkg@^2` → the name, when it is installed under that name. */
function packageNameOf(spec: string | undefined, dir: string): string | undefined {
  if (spec === undefined) return undefined;
  const name = /^(@[^/@]+\/[^/@]+|[^/@]+)/.exec(spec)?.[1];
  return name && dependencyNames(dir).includes(name) ? name : undefined;
}

/** `node_modules/mewcode` → the running MewCode (kept as it is in a project that has its own). */
async function linkRunningMewcode(dir: string, scope: Scope): Promise<void> {
  const root = runningMewcodeRoot();
  if (root === undefined) throw new Error('the running MewCode has no package.json named "mewcode" above it');
  const link = path.join(dir, 'node_modules', 'mewcode');
  const present = lstatOrUndefined(link);
  if (present?.isSymbolicLink() && realpathOrUndefined(link) === realpathSync(root)) return;
  if (present && scope === 'project') return;
  if (present) await rm(link, { recursive: true, force: true });
  await mkdir(path.dirname(link), { recursive: true });
  await symlink(root, link, 'dir');
  if (readlinkSync(link) !== root) throw new Error(`could not link ${link} to ${root}`);
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-6).join('\n');
}

function npm(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // Found through PATH's absolute entries only: `cwd` may be the project (`--project`).
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, env: hostProgramEnv({}, [cwd, process.cwd()]), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => resolve({ code: 127, stdout, stderr: `${stderr}${error.message}` }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
