/** Command-line parsing with Node's own util.parseArgs: no dependency, nothing to load at start-up. */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CliOptions } from '../types/plugin.js';
import type { PermissionMode } from '../types/permissions.js';
import { PRINT_MAX_TURNS } from '../types/session.js';
import { readMcpConfigFlags } from './mcp-config-flag.js';
import { claudeOnlyFlagMessage } from './claude-only-flags.js';
import { gatherRuleLists, RULE_LIST_OPTIONS, type ArgToken } from '../sdk/rule-list-args.js';
import { readPermissionModeFlags } from '../sdk/permission-mode-flag.js';
import { gatherPathLists } from './path-list-args.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;

/**
 * The help's head (usage and options); the commands follow, MewCode's own and then those of the
 * build's plugins (plugin-subcommands.ts), then HELP_TAIL.
 */
export const HELP_HEAD = `Usage: mewcode [options] [prompt]
       mewcode doctor [--provider P] [--model M] [--trust-project] [--plugin-dir D]
       mewcode plugin add <npm package | path> [--project] | plugin remove <name> | plugin list
       mewcode plugin marketplace add <git URL | folder> | list | update [name] | remove <name>
       mewcode plugin install|uninstall|enable|disable|update <plugin>[@<marketplace>]
       mewcode <command of a plugin> …   (listed below)

MewCode, a terminal coding agent.

Options:
  -p, --print                   answer the prompt and exit (headless). Piped standard input is read
                                to its end and added to the prompt; use </dev/null when stdin stays open
  --output-format <format>      text | json | stream-json (default: text)
  --permission-mode <mode>      default (or manual) | acceptEdits | plan | bypassPermissions |
                                dontAsk (as default, but every question is answered no without
                                asking); default: the settings' permissions.default_mode, else
                                default
  --dangerously-skip-permissions
                                the same as --permission-mode bypassPermissions
  -c, --continue                continue this project's most recent session
  -r, --resume <id>             continue the session with this id (\`mewcode sessions\` lists them)
  --provider <name>             configured provider name or protocol (anthropic | openai)
  --model <model>               model to use (overrides MEWCODE_MODEL and configuration)
  --max-turns <n>               stop after n model turns (default: none interactively, ${PRINT_MAX_TURNS} with -p;
                                max_turns in configuration sets your own default)
  --add-dir <path...>           also allow these directories for this run, as permissions.
                                additional_directories in your settings would (several after
                                one flag, or repeat it)
  --plugin-dir <path...>        load the Claude Code plugins in these directories for this run
                                (repeatable; also MEWCODE_PLUGIN_DIR, paths separated by ':')
  --allowedTools <rules...>     allow these for this session, e.g. "Bash(npm test:*)" Read (also
                                --allowed-tools; the words up to the next flag that are tool rules)
  --disallowedTools <rules...>  deny these for this session, e.g. "Bash(git push:*)" Edit (also
                                --disallowed-tools); a prompt after them must not be a tool name:
                                put it before the flags or after --. A rule word that would leave
                                no prompt on the command line (stdin or none) is a usage error:
                                end the list with -- or write the rules as one value ("Read,Edit")
  --append-system-prompt <text> add this to the end of the system prompt (the same on every request)
  --mcp-config <configs...>     MCP servers for this run, as in .mcp.json: {"mcpServers": {…}}, as
                                .json files or JSON texts (several after one flag, or repeat it;
                                no trust needed; a configured server of a name wins)
  --strict-mcp-config           use only --mcp-config's servers: none from configuration, .mcp.json,
                                ~/.claude.json or plugins
  --verbose                     accepted for Claude Code scripts: stream-json always has every event
  --trust-project               apply this project's plugins, providers, hooks, MCP servers and other
                                code-running settings without asking (also MEWCODE_TRUST_PROJECT=1)
  --dangerously-skip-sandbox    allow bypassPermissions for bash on a machine where no OS sandbox can run
  --debug-boot                  print each plugin's load time to stderr
  --debug                       show the stack of what a plugin or a tool threw, with .ts files
                                and lines (also MEWCODE_DEBUG=plugins or all; no other value)
  -v, --version                 print the version
  -h, --help                    print this help

`;

/** MewCode's own commands (a plugin cannot take these names). */
export const OWN_COMMANDS_HELP = `Commands:
  plugin add <spec> [--project]
                                install a MewCode plugin (an npm package name or spec, a package
                                folder or tarball, or a plugin file) into ~/.mewcode (or the
                                project, which then loads it once trusted) and add it to plugins:
  plugin remove <name> [--project]
                                take it out of plugins: and uninstall it
  plugin list                   the plugins your configuration and the project's name, and where
                                each resolves, then the installed Claude Code plugins
  plugin marketplace add <git URL | folder>
                                add a Claude Code plugin marketplace (a folder or git repository
                                with .claude-plugin/marketplace.json): a folder is read where it
                                is; a git repository is cloned with git
  plugin marketplace list | update [name] | remove <name>
                                the known marketplaces; fetch the newest commit; forget one (and
                                uninstall its plugins)
  plugin install <plugin>[@<marketplace>]
                                copy a Claude Code plugin into ~/.mewcode/plugins (again: update it)
  plugin enable|disable|uninstall <plugin>[@<marketplace>]
                                turn an installed plugin on or off (from the next start), or remove it
  plugin update <plugin>[@<marketplace>]
                                fetch its marketplace and install the plugin again from it
  doctor                        check this machine and project: Node.js, configuration files,
                                workspace trust, provider and API key (never printed), proxy,
                                plugins, and each plugin's checks (OS sandbox, ripgrep, audit
                                log…); one ok/warn/fail line each; exit 0 without a fail, 1 with
                                one, 2 bad usage
`;

export const HELP_TAIL = `
Environment (used when no providers are configured):
  ANTHROPIC_API_KEY / OPENAI_API_KEY     API key; ANTHROPIC_BASE_URL / OPENAI_BASE_URL to change the endpoint
  MEWCODE_PROVIDER=anthropic|openai      which protocol to use;   MEWCODE_MODEL=<model>   which model

Two kinds of file, each at three levels (user, project, your local overrides); YAML or JSON:
  Configuration (providers and models, plugins and their sections, MCP servers, limits):
    ~/.mewcode/config.yaml, .mewcode.yaml (or .mewcode/config.yaml), .mewcode/config.local.yaml
  Settings (permission rules and mode, hooks, the OS sandbox; .claude/settings.json is read too):
    ~/.mewcode/settings.yaml, .mewcode/settings.yaml, .mewcode/settings.local.yaml

Managed settings (an organisation's policy, above all of these): /etc/mewcode/managed-settings.yaml
  (macOS: /Library/Application Support/MewCode/managed-settings.yaml); MEWCODE_MANAGED_SETTINGS=<path> adds one more
`;

/** The help of a build without any plugin command. */
export const HELP = `${HELP_HEAD}${OWN_COMMANDS_HELP}${HELP_TAIL}`;

/** The first words MewCode answers itself; every other first word may be a plugin's command. */
export const OWN_COMMANDS: ReadonlySet<string> = new Set(['doctor', 'plugin', 'plugins', 'help', 'version']);

const SUMMARY_COLUMN = 32;
const HELP_WIDTH = 100;

/** `  <usage>   <summary>` lines in the help's layout: the summary wrapped at the help's width. */
export function formatCommandHelp(commands: readonly { usage: string; summary: string }[]): string {
  const indent = ' '.repeat(SUMMARY_COLUMN);
  return commands
    .map(({ usage, summary }) => {
      const words = summary.split(/\s+/).filter(Boolean);
      const lines: string[] = [];
      let line = '';
      for (const word of words) {
        if (line !== '' && SUMMARY_COLUMN + line.length + 1 + word.length > HELP_WIDTH) {
          lines.push(line);
          line = word;
        } else line = line === '' ? word : `${line} ${word}`;
      }
      if (line !== '') lines.push(line);
      const head = `  ${usage}`;
      const first = head.length < SUMMARY_COLUMN ? `${head.padEnd(SUMMARY_COLUMN)}${lines.shift() ?? ''}` : `${head}\n${indent}${lines.shift() ?? ''}`;
      return [first.trimEnd(), ...lines.map((l) => `${indent}${l}`)].join('\n');
    })
    .join('\n');
}

export type ParsedCommand =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'run'; options: CliOptions }
  | { kind: 'doctor'; options: DoctorOptions }
  | { kind: 'plugin'; action: 'add' | 'remove'; target: string; scope: 'user' | 'project'; cwd: string }
  | { kind: 'plugin'; action: 'list'; cwd: string }
  | { kind: 'plugin'; action: 'install' | 'uninstall' | 'enable' | 'disable' | 'update'; target: string; cwd: string }
  | { kind: 'plugin'; action: 'marketplace'; verb: 'add' | 'remove'; target: string; cwd: string }
  | { kind: 'plugin'; action: 'marketplace'; verb: 'list' | 'update'; target?: string; cwd: string }
  | { kind: 'error'; message: string };

/** `mewcode doctor`: the flags that change what a run would use (provider, model, trust). */
export interface DoctorOptions {
  cwd: string;
  provider?: string;
  model?: string;
  /** --trust-project or MEWCODE_TRUST_PROJECT=1, as for a run. */
  trustProject: boolean;
  /** --plugin-dir / MEWCODE_PLUGIN_DIR, as for a run. */
  pluginDirs?: readonly string[];
}

/** Environment values that switch a boolean on (`MEWCODE_TRUST_PROJECT=1` for CI). */
const ENV_TRUE = new Set(['1', 'true']);

export function parseCommandLine(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = process.env): ParsedCommand {
  // A subcommand is the first word exactly; `mewcode "doctor this"` stays a prompt. The plugins'
  // commands (`sessions`, `audit verify`…) are looked up before this (subcommands.ts).
  if (argv[0] === 'doctor') return parseDoctorCommand(argv.slice(1), cwd, env);
  if (argv[0] === 'plugin' || argv[0] === 'plugins') return parsePluginCommand(argv.slice(1), cwd);
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        print: { type: 'boolean', short: 'p' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
        'output-format': { type: 'string' },
        'permission-mode': { type: 'string' },
        'dangerously-skip-permissions': { type: 'boolean' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'debug-boot': { type: 'boolean' },
        debug: { type: 'boolean' },
        'trust-project': { type: 'boolean' },
        'dangerously-skip-sandbox': { type: 'boolean' },
        // Claude Code requires --verbose with `-p --output-format stream-json`; scripts pass it.
        verbose: { type: 'boolean' },
        'max-turns': { type: 'string' },
        ...RULE_LIST_OPTIONS,
        'mcp-config': { type: 'string', multiple: true },
        'strict-mcp-config': { type: 'boolean' },
        'append-system-prompt': { type: 'string' },
        'plugin-dir': { type: 'string', multiple: true },
        'add-dir': { type: 'string', multiple: true },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { kind: 'error', message: claudeOnlyFlagMessage(error) ?? `${firstSentence(error)}. Run mewcode --help for the options.` };
  }
  const { values } = parsed;
  if (values.version) return { kind: 'version' };
  if (values.help) return { kind: 'help' };

  const outputFormat = values['output-format'] ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(outputFormat)) {
    return { kind: 'error', message: `--output-format must be one of ${OUTPUT_FORMATS.join(', ')} (got "${outputFormat}")` };
  }
  const modeFlags = readPermissionModeFlags(values['permission-mode'], values['dangerously-skip-permissions'] === true);
  if (!modeFlags.ok) return { kind: 'error', message: modeFlags.error };
  // The flags take several values in a row (Claude Code's); what follows them may be the prompt.
  const paths = gatherPathLists(parsed.tokens as ArgToken[], cwd);
  if (!paths.ok) return { kind: 'error', message: paths.error };
  const rules = gatherRuleLists(paths.tokens);
  if (!rules.ok) return { kind: 'error', message: rules.error };
  const { positionals } = rules;
  if (values.continue && values.resume !== undefined) return { kind: 'error', message: '--continue and --resume cannot be used together: --continue takes the latest session, --resume <id> a given one' };
  if (values.resume !== undefined && values.resume.trim() === '') return { kind: 'error', message: '--resume needs a session id; `mewcode sessions` lists them' };
  // An empty value (`--model ""` from an unset shell variable) would silently mean "no model".
  for (const flag of ['provider', 'model'] as const) {
    if (values[flag] !== undefined && values[flag].trim() === '') return { kind: 'error', message: `--${flag} needs a value (got an empty one)` };
  }
  const maxTurns = values['max-turns'];
  if (maxTurns !== undefined && !/^[1-9]\d*$/.test(maxTurns.trim())) {
    return { kind: 'error', message: `--max-turns must be a whole number of at least 1 (got "${maxTurns}")` };
  }
  const mcpConfig = paths.values['mcp-config'].length > 0 ? readMcpConfigFlags(paths.values['mcp-config'], cwd) : undefined;
  if (mcpConfig && 'error' in mcpConfig) return { kind: 'error', message: mcpConfig.error };
  const prompt = positionals.length > 0 ? positionals.join(' ') : undefined;
  const options: CliOptions = {
    outputFormat: outputFormat as CliOptions['outputFormat'],
    permissionMode: modeFlags.mode ?? ('default' satisfies PermissionMode),
    permissionModeGiven: modeFlags.mode !== undefined,
    debugBoot: values['debug-boot'] ?? false,
    cwd,
    allowedTools: rules.allowedTools,
    disallowedTools: rules.disallowedTools,
    trustProject: trustFlag(values['trust-project'], env),
    dangerouslySkipSandbox: values['dangerously-skip-sandbox'] === true,
  };
  if (modeFlags.dontAsk) options.dontAsk = true;
  if (prompt !== undefined) options.prompt = prompt;
  else if (values.print) options.prompt = '';
  if (values.provider !== undefined) options.provider = values.provider;
  if (values.model !== undefined) options.model = values.model;
  if (maxTurns !== undefined) options.maxTurns = Number(maxTurns.trim());
  if (values.debug) options.debug = true;
  if (values.continue) options.continueLatest = true;
  if (values['append-system-prompt'] !== undefined && values['append-system-prompt'].trim() !== '') options.appendSystemPrompt = values['append-system-prompt'];
  if (values.resume !== undefined) options.resumeId = values.resume.trim();
  if (mcpConfig) {
    options.mcpServers = mcpConfig.servers;
    options.mcpServerOrigins = mcpConfig.origins;
  }
  if (values['strict-mcp-config']) options.strictMcpConfig = true;
  const pluginDirs = pluginDirList(paths.values['plugin-dir'], cwd, env);
  if (typeof pluginDirs === 'string') return { kind: 'error', message: pluginDirs };
  if (pluginDirs.length > 0) options.pluginDirs = pluginDirs;
  const addDirs = addDirList(paths.values['add-dir'], cwd);
  if (typeof addDirs === 'string') return { kind: 'error', message: addDirs };
  if (addDirs.length > 0) options.additionalDirectories = addDirs;
  return { kind: 'run', options };
}

const DOCTOR_USAGE = 'usage: mewcode doctor [--provider P] [--model M] [--trust-project] [--plugin-dir D]';

/** `doctor [--provider P] [--model M] [--trust-project]`: checks what a run in `cwd` would use. */
function parseDoctorCommand(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { provider: { type: 'string' }, model: { type: 'string' }, 'trust-project': { type: 'boolean' }, 'plugin-dir': { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    return { kind: 'error', message: `${firstSentence(error)}; ${DOCTOR_USAGE}` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length > 0) return { kind: 'error', message: `doctor takes no arguments (got "${positionals.join(' ')}"); ${DOCTOR_USAGE}` };
  for (const flag of ['provider', 'model'] as const) {
    if (values[flag] !== undefined && values[flag].trim() === '') return { kind: 'error', message: `--${flag} needs a value; ${DOCTOR_USAGE}` };
  }
  const options: DoctorOptions = {
    cwd,
    trustProject: trustFlag(values['trust-project'], env),
  };
  if (values.provider !== undefined) options.provider = values.provider;
  if (values.model !== undefined) options.model = values.model;
  const pluginDirs = pluginDirList(values['plugin-dir'] ?? [], cwd, env);
  if (typeof pluginDirs === 'string') return { kind: 'error', message: `${pluginDirs}; ${DOCTOR_USAGE}` };
  if (pluginDirs.length > 0) options.pluginDirs = pluginDirs;
  return { kind: 'doctor', options };
}

/**
 * Claude Code plugin directories: MEWCODE_PLUGIN_DIR's (split at the path delimiter) first, then
 * each `--plugin-dir`, resolved against `cwd`; an empty value is a usage error.
 */
export function pluginDirList(flags: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): string[] | string {
  const fromEnv = (env.MEWCODE_PLUGIN_DIR ?? '').split(path.delimiter).filter((dir) => dir.trim() !== '');
  if (flags.some((dir) => dir.trim() === '')) return '--plugin-dir needs a directory';
  const dirs: string[] = [];
  for (const dir of [...fromEnv, ...flags]) {
    const resolved = path.resolve(cwd, dir.trim());
    if (!dirs.includes(resolved)) dirs.push(resolved);
  }
  return dirs;
}

/**
 * `--add-dir <path>` (repeatable): absolute directories, resolved against `cwd` (`~` against the
 * home). They are given to the run as the user's own additional directories, under the same rule
 * as `permissions.additional_directories`; one that is not a directory is a usage error (a typo
 * would otherwise allow nothing without a word). Several may follow one flag (path-list-args.ts).
 */
export function addDirList(flags: readonly string[], cwd: string): string[] | string {
  const dirs: string[] = [];
  for (const raw of flags) {
    const given = raw.trim();
    if (given === '') return '--add-dir needs a directory';
    const expanded = given === '~' ? os.homedir() : given.startsWith('~/') ? path.join(os.homedir(), given.slice(2)) : given;
    const resolved = path.resolve(cwd, expanded);
    if (!statSync(resolved, { throwIfNoEntry: false })?.isDirectory()) return `--add-dir ${given}: no such directory (${resolved})`;
    if (!dirs.includes(resolved)) dirs.push(resolved);
  }
  return dirs;
}

/** --trust-project, or MEWCODE_TRUST_PROJECT=1 for CI. */
function trustFlag(given: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return given === true || ENV_TRUE.has((env.MEWCODE_TRUST_PROJECT ?? '').trim().toLowerCase());
}

const PLUGIN_USAGE =
  'usage: mewcode plugin add <npm package | path> [--project] | plugin remove <name> [--project] | plugin list | plugin install|uninstall|enable|disable|update <plugin>[@<marketplace>] | plugin marketplace add|list|update|remove';
const MARKETPLACE_USAGE = 'usage: mewcode plugin marketplace add <git URL | folder> | marketplace list | marketplace update [name] | marketplace remove <name>';

/** `plugin add <spec> [--project]`, `plugin remove <name> [--project]`, `plugin list`. */
function parsePluginCommand(argv: readonly string[], cwd: string): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { project: { type: 'boolean' }, scope: { type: 'string', short: 's' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return { kind: 'error', message: `${firstSentence(error)}; ${PLUGIN_USAGE}` };
  }
  if (parsed.values.help) return { kind: 'help' };
  const [action, ...rest] = parsed.positionals;
  if (parsed.values.scope !== undefined && (action === undefined || action === 'add' || action === 'remove' || action === 'list')) {
    return { kind: 'error', message: `plugin ${action ?? 'list'} has no --scope (MewCode plugins: --project); ${PLUGIN_USAGE}` };
  }
  if (action === 'list' || (action === undefined && !parsed.values.project)) {
    if (rest.length > 0 || parsed.values.project) return { kind: 'error', message: `plugin list takes no arguments; ${PLUGIN_USAGE}` };
    return { kind: 'plugin', action: 'list', cwd };
  }
  if (action === 'add' || action === 'remove') {
    if (rest.length !== 1 || rest[0]!.trim() === '') return { kind: 'error', message: `plugin ${action} takes one ${action === 'add' ? 'npm package or path' : 'plugin name'}; ${PLUGIN_USAGE}` };
    return { kind: 'plugin', action, target: rest[0]!.trim(), scope: parsed.values.project ? 'project' : 'user', cwd };
  }
  // Claude Code plugins are installed for the user only (like a user-scope `claude plugin install`):
  // `--scope user`, Claude Code's default, changes nothing; another scope is a project's settings.
  const scope = parsed.values.scope;
  if (scope !== undefined && scope !== 'user') {
    return { kind: 'error', message: `--scope ${scope}: Claude Code plugins are installed for you; a project enables them with enabledPlugins in .claude/settings.json (.claude/settings.local.json for this machine only)` };
  }
  if (parsed.values.project && (action === 'install' || action === 'uninstall' || action === 'enable' || action === 'disable' || action === 'update' || action === 'marketplace')) {
    return { kind: 'error', message: `plugin ${action} has no --project: Claude Code plugins are installed for you; a project enables them with enabledPlugins in .claude/settings.json` };
  }
  if (action === 'install' || action === 'uninstall' || action === 'enable' || action === 'disable' || action === 'update') {
    if (rest.length !== 1 || rest[0]!.trim() === '') return { kind: 'error', message: `plugin ${action} takes one <plugin>[@<marketplace>]; ${PLUGIN_USAGE}` };
    return { kind: 'plugin', action, target: rest[0]!.trim(), cwd };
  }
  if (action === 'marketplace' || action === 'market') {
    const [verb = 'list', ...names] = rest;
    if ((verb === 'add' || verb === 'remove' || verb === 'rm') && names.length === 1 && names[0]!.trim() !== '') {
      return { kind: 'plugin', action: 'marketplace', verb: verb === 'rm' ? 'remove' : verb, target: names[0]!.trim(), cwd };
    }
    if (verb === 'list' && names.length === 0) return { kind: 'plugin', action: 'marketplace', verb, cwd };
    if (verb === 'update' && names.length <= 1) return { kind: 'plugin', action: 'marketplace', verb, ...(names[0] ? { target: names[0] } : {}), cwd };
    return { kind: 'error', message: `plugin marketplace ${rest.join(' ')}: ${MARKETPLACE_USAGE}` };
  }
  return { kind: 'error', message: `unknown plugin subcommand "${parsed.positionals.join(' ')}"; ${PLUGIN_USAGE}` };
}

/** parseArgs appends advice about '--' that reads oddly here; keep its first sentence. */
function firstSentence(error: unknown): string {
  return (error as Error).message.split('. ')[0]?.replace(/\.$/, '') ?? String(error);
}
