/** Command-line parsing with Node's own util.parseArgs: no dependency, nothing to load at start-up. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CliOptions } from '../types/plugin.js';
import { PERMISSION_MODES, type PermissionMode } from '../types/permissions.js';
import { PRINT_MAX_TURNS } from '../types/session.js';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;

export const HELP = `Usage: mewcode [options] [prompt]
       mewcode audit verify [--file F]
       mewcode doctor [--provider P] [--model M] [--trust-project]
       mewcode sessions
       mewcode mcp list [--trust-project]
       mewcode hooks [--trust-project]
       mewcode skills [--trust-project] | skills install <url> [--project]
       mewcode plugin add <npm package | path> [--project] | plugin remove <name> | plugin list

MewCode, a terminal coding agent.

Options:
  -p, --print                   answer the prompt and exit (headless). Piped standard input is read
                                to its end and added to the prompt; use </dev/null when stdin stays open
  --output-format <format>      text | json | stream-json (default: text)
  --permission-mode <mode>      default | acceptEdits | plan | bypassPermissions (default: the
                                settings' permissions.default_mode, else default)
  -c, --continue                continue this project's most recent session
  -r, --resume <id>             continue the session with this id (\`mewcode sessions\` lists them)
  --provider <name>             configured provider name or protocol (anthropic | openai)
  --model <model>               model to use (overrides MEWCODE_MODEL and configuration)
  --max-turns <n>               stop after n model turns (default: none interactively, ${PRINT_MAX_TURNS} with -p;
                                max_turns in configuration sets your own default)
  --allowedTools <rules>        allow these for this session, e.g. "Bash(npm test:*),Read" (repeatable)
  --disallowedTools <rules>     deny these for this session, e.g. "Bash(git push:*)" (repeatable)
  --verbose                     accepted for Claude Code scripts: stream-json always has every event
  --trust-project               apply this project's plugins, providers, hooks, MCP servers and other
                                code-running settings without asking (also MEWCODE_TRUST_PROJECT=1)
  --dangerously-skip-sandbox    allow bypassPermissions for bash on a machine where no OS sandbox can run
  --debug-boot                  print each plugin's load time to stderr
  -v, --version                 print the version
  -h, --help                    print this help

Commands:
  audit verify [--file F]       check the permission audit log's hash chain (default
                                .mewcode/audit.jsonl): exit 0 intact, 1 broken (first bad line
                                named), 2 no log or bad usage
  hooks [--trust-project]       list the hook rules of the settings files: event, matcher,
                                command, source, trust state, and runs counted in .mewcode/hooks.log
  skills [--trust-project]      list the skills a run here would offer: name, mode, source folder,
                                description, and problems found (fixed-up values, skipped folders)
  skills install <url> [--project]
                                install a skill from a github.com tree URL, a raw.githubusercontent.com
                                SKILL.md or skills.sh into ~/.mewcode/skills (or the project's
                                .mewcode/skills); MEWCODE_SKILLS_GITHUB_API / _RAW_BASE change the endpoints
  plugin add <spec> [--project]
                                install a MewCode plugin (an npm package name or spec, a package
                                folder or tarball, or a plugin file) into ~/.mewcode (or the
                                project, which then loads it once trusted) and add it to plugins:
  plugin remove <name> [--project]
                                take it out of plugins: and uninstall it
  plugin list                   the plugins your configuration and the project's name, and where
                                each resolves
  mcp list [--trust-project]    connect to every configured MCP server and list each: state,
                                transport, tool count, unset variables, last error, log file
  sessions                      list this project's saved sessions, newest first: id, age, model,
                                message count, title
  doctor                        check this machine and project: Node.js, configuration files,
                                workspace trust, provider and API key (never printed), ripgrep,
                                OS sandbox, audit log, plugins; one ok/warn/fail line each;
                                exit 0 without a fail, 1 with one, 2 bad usage

Environment (used when no providers are configured):
  ANTHROPIC_API_KEY / OPENAI_API_KEY     API key; ANTHROPIC_BASE_URL / OPENAI_BASE_URL to change the endpoint
  MEWCODE_PROVIDER=anthropic|openai      which protocol to use;   MEWCODE_MODEL=<model>   which model

Configuration: ~/.mewcode/config.yaml, .mewcode.yaml (or .mewcode/config.yaml), .mewcode/config.local.yaml
Managed settings (an organisation's policy, above all of these): /etc/mewcode/managed-settings.yaml
  (macOS: /Library/Application Support/MewCode/managed-settings.yaml); MEWCODE_MANAGED_SETTINGS=<path> adds one more
`;

/**
 * `--allowedTools "Bash(git log:*),Read" --allowedTools Edit`: values may repeat and may hold
 * several rules separated by commas or spaces outside parentheses (as Claude Code accepts).
 */
export function splitRuleList(values: readonly string[]): string[] {
  const rules: string[] = [];
  for (const value of values) {
    let depth = 0;
    let current = '';
    for (const char of value) {
      if (char === '(') depth++;
      if (char === ')') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || char === ' ')) {
        if (current.trim()) rules.push(current.trim());
        current = '';
      } else current += char;
    }
    if (current.trim()) rules.push(current.trim());
  }
  return rules;
}

export type ParsedCommand =
  | { kind: 'version' }
  | { kind: 'help' }
  | { kind: 'run'; options: CliOptions }
  | { kind: 'audit-verify'; file: string }
  | { kind: 'doctor'; options: DoctorOptions }
  | { kind: 'sessions'; cwd: string }
  | { kind: 'mcp-list'; options: DoctorOptions }
  | { kind: 'hooks'; options: DoctorOptions }
  | { kind: 'skills-list'; options: DoctorOptions }
  | { kind: 'skills-install'; options: DoctorOptions; url: string; scope: 'user' | 'project' }
  | { kind: 'plugin'; action: 'add' | 'remove'; target: string; scope: 'user' | 'project'; cwd: string }
  | { kind: 'plugin'; action: 'list'; cwd: string }
  | { kind: 'error'; message: string };

/** `mewcode doctor`: the flags that change what a run would use (provider, model, trust). */
export interface DoctorOptions {
  cwd: string;
  provider?: string;
  model?: string;
  /** --trust-project or MEWCODE_TRUST_PROJECT=1, as for a run. */
  trustProject: boolean;
}

/** Environment values that switch a boolean on (`MEWCODE_TRUST_PROJECT=1` for CI). */
const ENV_TRUE = new Set(['1', 'true']);

/** The audit log checked by `audit verify` when no --file is given. */
export const DEFAULT_AUDIT_FILE = path.join('.mewcode', 'audit.jsonl');

const AUDIT_USAGE = 'usage: mewcode audit verify [--file F]';

export function parseCommandLine(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>> = process.env): ParsedCommand {
  // A subcommand is the first word exactly; `mewcode "audit this"` stays a prompt.
  if (argv[0] === 'audit') return parseAuditCommand(argv.slice(1), cwd);
  if (argv[0] === 'doctor') return parseDoctorCommand(argv.slice(1), cwd, env);
  if (argv[0] === 'mcp') return parseMcpCommand(argv.slice(1), cwd, env);
  if (argv[0] === 'hooks') return parseHooksCommand(argv.slice(1), cwd, env);
  if (argv[0] === 'skills') return parseSkillsCommand(argv.slice(1), cwd, env);
  if (argv[0] === 'plugin' || argv[0] === 'plugins') return parsePluginCommand(argv.slice(1), cwd);
  if (argv[0] === 'sessions') {
    return argv.length === 1 ? { kind: 'sessions', cwd } : { kind: 'error', message: `sessions takes no arguments (got "${argv.slice(1).join(' ')}"); usage: mewcode sessions` };
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        print: { type: 'boolean', short: 'p' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
        'output-format': { type: 'string' },
        'permission-mode': { type: 'string' },
        provider: { type: 'string' },
        model: { type: 'string' },
        'debug-boot': { type: 'boolean' },
        'trust-project': { type: 'boolean' },
        'dangerously-skip-sandbox': { type: 'boolean' },
        // Claude Code requires --verbose with `-p --output-format stream-json`; scripts pass it.
        verbose: { type: 'boolean' },
        'max-turns': { type: 'string' },
        allowedTools: { type: 'string', multiple: true },
        disallowedTools: { type: 'string', multiple: true },
        version: { type: 'boolean', short: 'v' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { kind: 'error', message: `${firstSentence(error)}. Run mewcode --help for the options.` };
  }
  const { values, positionals } = parsed;
  if (values.version) return { kind: 'version' };
  if (values.help) return { kind: 'help' };

  const outputFormat = values['output-format'] ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(outputFormat)) {
    return { kind: 'error', message: `--output-format must be one of ${OUTPUT_FORMATS.join(', ')} (got "${outputFormat}")` };
  }
  const permissionMode = values['permission-mode'] ?? 'default';
  if (!(PERMISSION_MODES as readonly string[]).includes(permissionMode)) {
    return { kind: 'error', message: `--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${permissionMode}")` };
  }
  if (values.continue && values.resume !== undefined) return { kind: 'error', message: '--continue and --resume cannot be used together: --continue takes the latest session, --resume <id> a given one' };
  if (values.resume !== undefined && values.resume.trim() === '') return { kind: 'error', message: '--resume needs a session id; `mewcode sessions` lists them' };
  const maxTurns = values['max-turns'];
  if (maxTurns !== undefined && !/^[1-9]\d*$/.test(maxTurns.trim())) {
    return { kind: 'error', message: `--max-turns must be a whole number of at least 1 (got "${maxTurns}")` };
  }
  const prompt = positionals.length > 0 ? positionals.join(' ') : undefined;
  const options: CliOptions = {
    outputFormat: outputFormat as CliOptions['outputFormat'],
    permissionMode: permissionMode as PermissionMode,
    permissionModeGiven: values['permission-mode'] !== undefined,
    debugBoot: values['debug-boot'] ?? false,
    cwd,
    allowedTools: splitRuleList(values.allowedTools ?? []),
    disallowedTools: splitRuleList(values.disallowedTools ?? []),
    trustProject: trustFlag(values['trust-project'], env),
    dangerouslySkipSandbox: values['dangerously-skip-sandbox'] === true,
  };
  if (prompt !== undefined) options.prompt = prompt;
  else if (values.print) options.prompt = '';
  if (values.provider !== undefined) options.provider = values.provider;
  if (values.model !== undefined) options.model = values.model;
  if (maxTurns !== undefined) options.maxTurns = Number(maxTurns.trim());
  if (values.continue) options.continueLatest = true;
  if (values.resume !== undefined) options.resumeId = values.resume.trim();
  return { kind: 'run', options };
}

/** `audit verify [--file F]`: the file is resolved against `cwd`. */
function parseAuditCommand(argv: readonly string[], cwd: string): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { file: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return { kind: 'error', message: `${firstSentence(error)}; ${AUDIT_USAGE}` };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1 || positionals[0] !== 'verify') {
    const got = positionals.length === 0 ? 'no subcommand' : `"${positionals.join(' ')}"`;
    return { kind: 'error', message: `audit takes one subcommand, verify (got ${got}); ${AUDIT_USAGE}` };
  }
  if (values.file !== undefined && values.file.trim() === '') return { kind: 'error', message: `--file needs a path; ${AUDIT_USAGE}` };
  return { kind: 'audit-verify', file: path.resolve(cwd, values.file ?? DEFAULT_AUDIT_FILE) };
}

const DOCTOR_USAGE = 'usage: mewcode doctor [--provider P] [--model M] [--trust-project]';

/** `doctor [--provider P] [--model M] [--trust-project]`: checks what a run in `cwd` would use. */
function parseDoctorCommand(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { provider: { type: 'string' }, model: { type: 'string' }, 'trust-project': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
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
  return { kind: 'doctor', options };
}

/** `mewcode <words> [--trust-project]`: a listing command whose only flag is trust. */
function parseTrustOnlyCommand(
  argv: readonly string[],
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
  usage: string,
): { options: DoctorOptions; positionals: string[] } | { error: ParsedCommand } {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { 'trust-project': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return { error: { kind: 'error', message: `${firstSentence(error)}; ${usage}` } };
  }
  if (parsed.values.help) return { error: { kind: 'help' } };
  return { options: { cwd, trustProject: trustFlag(parsed.values['trust-project'], env) }, positionals: parsed.positionals };
}

/** --trust-project, or MEWCODE_TRUST_PROJECT=1 for CI. */
function trustFlag(given: boolean | undefined, env: Readonly<Record<string, string | undefined>>): boolean {
  return given === true || ENV_TRUE.has((env.MEWCODE_TRUST_PROJECT ?? '').trim().toLowerCase());
}

const HOOKS_USAGE = 'usage: mewcode hooks [--trust-project]';

/** `hooks [--trust-project]`: the hook rules a run in `cwd` would use. */
function parseHooksCommand(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  const parsed = parseTrustOnlyCommand(argv, cwd, env, HOOKS_USAGE);
  if ('error' in parsed) return parsed.error;
  if (parsed.positionals.length > 0) return { kind: 'error', message: `hooks takes no arguments (got "${parsed.positionals.join(' ')}"); ${HOOKS_USAGE}` };
  return { kind: 'hooks', options: parsed.options };
}

const SKILLS_USAGE = 'usage: mewcode skills [--trust-project] | mewcode skills install <url> [--project]';

/** `skills [list] [--trust-project]` or `skills install <url> [--project]`. */
function parseSkillsCommand(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { 'trust-project': { type: 'boolean' }, project: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return { kind: 'error', message: `${firstSentence(error)}; ${SKILLS_USAGE}` };
  }
  if (parsed.values.help) return { kind: 'help' };
  const options: DoctorOptions = { cwd, trustProject: trustFlag(parsed.values['trust-project'], env) };
  const [sub, ...rest] = parsed.positionals;
  if (sub === undefined || (sub === 'list' && rest.length === 0)) {
    if (parsed.values.project) return { kind: 'error', message: `--project is for skills install; ${SKILLS_USAGE}` };
    return { kind: 'skills-list', options };
  }
  if (sub === 'install' && rest.length === 1) return { kind: 'skills-install', options, url: rest[0]!, scope: parsed.values.project ? 'project' : 'user' };
  if (sub === 'install') return { kind: 'error', message: `skills install takes one URL; ${SKILLS_USAGE}` };
  return { kind: 'error', message: `unknown skills subcommand "${parsed.positionals.join(' ')}"; ${SKILLS_USAGE}` };
}

const PLUGIN_USAGE = 'usage: mewcode plugin add <npm package | path> [--project] | plugin remove <name> [--project] | plugin list';

/** `plugin add <spec> [--project]`, `plugin remove <name> [--project]`, `plugin list`. */
function parsePluginCommand(argv: readonly string[], cwd: string): ParsedCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { project: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return { kind: 'error', message: `${firstSentence(error)}; ${PLUGIN_USAGE}` };
  }
  if (parsed.values.help) return { kind: 'help' };
  const [action, ...rest] = parsed.positionals;
  if (action === 'list' || (action === undefined && !parsed.values.project)) {
    if (rest.length > 0 || parsed.values.project) return { kind: 'error', message: `plugin list takes no arguments; ${PLUGIN_USAGE}` };
    return { kind: 'plugin', action: 'list', cwd };
  }
  if (action === 'add' || action === 'remove') {
    if (rest.length !== 1 || rest[0]!.trim() === '') return { kind: 'error', message: `plugin ${action} takes one ${action === 'add' ? 'npm package or path' : 'plugin name'}; ${PLUGIN_USAGE}` };
    return { kind: 'plugin', action, target: rest[0]!.trim(), scope: parsed.values.project ? 'project' : 'user', cwd };
  }
  return { kind: 'error', message: `unknown plugin subcommand "${parsed.positionals.join(' ')}"; ${PLUGIN_USAGE}` };
}

const MCP_USAGE = 'usage: mewcode mcp list [--trust-project]';

/** `mcp list [--trust-project]`: the MCP servers a run in `cwd` would start. */
function parseMcpCommand(argv: readonly string[], cwd: string, env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  const parsed = parseTrustOnlyCommand(argv, cwd, env, MCP_USAGE);
  if ('error' in parsed) return parsed.error;
  const { positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'list') {
    return { kind: 'error', message: `${positionals.length === 0 ? 'mcp needs a subcommand' : `unknown mcp subcommand "${positionals.join(' ')}"`}; ${MCP_USAGE}` };
  }
  return { kind: 'mcp-list', options: parsed.options };
}

/** parseArgs appends advice about '--' that reads oddly here; keep its first sentence. */
function firstSentence(error: unknown): string {
  return (error as Error).message.split('. ')[0]?.replace(/\.$/, '') ?? String(error);
}
