/**
 * What the model sees of bash (name, description, schema) and the call's timeout, known at boot
 * without the implementation, which is imported on the first call (plugins/tool-bash/index.ts).
 */
import type { OutputLimits } from '../../types/services.js';
import type { JsonSchema, ToolInput } from '../../types/tools.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
/** SIGTERM → SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/** The kernel's outer limit is the command's timeout plus this: the kill sequence fits inside it. */
export const TIMEOUT_MARGIN_MS = KILL_GRACE_MS + 1_000;

export function bashDefinition(limits: OutputLimits): {
  name: 'bash';
  readOnly: false;
  category: 'exec';
  description: string;
  inputSchema: JsonSchema;
  timeoutMs(input: ToolInput): number;
  concurrencySafe(input: ToolInput): Promise<boolean>;
} {
  return {
    name: 'bash',
    readOnly: false,
    category: 'exec',
    description: describeTool(limits),
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command to run with `bash -c` (pipes, &&, redirections and quoting work as in bash).' },
        description: {
          type: 'string',
          description: 'What the command does, in 5–10 words, for the user watching (e.g. "Run the unit tests").',
        },
        timeout: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_TIMEOUT_MS,
          description: `Timeout in milliseconds; default ${DEFAULT_TIMEOUT_MS} (2 minutes), maximum ${MAX_TIMEOUT_MS} (10 minutes).`,
        },
        workdir: {
          type: 'string',
          description: 'Directory to run in, absolute or relative to the project root; must be inside the project. Default: the project root.',
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    timeoutMs: bashTimeoutMs,
    concurrencySafe: bashConcurrencySafe,
  };
}

/**
 * A command that only reads may run beside the turn's other such calls. The parser and the
 * classifier load here, not at boot; the permission layers parse the same command (cached).
 */
async function bashConcurrencySafe(input: ToolInput): Promise<boolean> {
  if (typeof input.command !== 'string') return false;
  const [{ parseShellCommand }, { isReadOnlyCommand }] = await Promise.all([import('../../sdk/shell-command/index.js'), import('./read-only-command.js')]);
  return isReadOnlyCommand(await parseShellCommand(input.command));
}

/** The kernel's outer limit for a call: the command's own timeout plus the kill sequence. */
export function bashTimeoutMs(input: ToolInput): number {
  const parsed = parseTimeout(input.timeout);
  return (typeof parsed === 'number' ? parsed : DEFAULT_TIMEOUT_MS) + TIMEOUT_MARGIN_MS;
}

function describeTool(limits: OutputLimits): string {
  return [
    'Runs a shell command with bash and returns its output. Use it for builds, tests, git, package managers, and running programs or scripts.',
    'Do not use it to read files (use read_file), to find files (use glob), to search file contents (use grep), or to edit or create files (use edit_file / write_file): those tools are faster, need no approval for reading, and return output made for you.',
    '',
    '- Runs in the project root, or in `workdir` (which must be inside the project). Every call is a fresh shell: `cd` and exported variables do not carry over; use `workdir` or `cd dir && …`.',
    '- stdin is closed and there is no terminal: use non-interactive flags (`-y`, `--yes`, `git --no-pager`, `CI=1`).',
    '- Only HOME, PATH, USER, TERM, LANG and variables the user allowlisted are set; credentials from the user\'s shell are not available.',
    `- \`timeout\` is in milliseconds: default ${DEFAULT_TIMEOUT_MS} (2 minutes), maximum ${MAX_TIMEOUT_MS} (10 minutes). On timeout the command and everything it started are stopped and the output so far is returned as an error.`,
    '- The result starts with `exit_code: N`, then stdout and stderr interleaved. A non-zero exit code is a normal result to read, not a tool failure.',
    `- Output is capped at ${limits.bashMaxLines} lines and ${limits.bashMaxBytes} bytes: the beginning and the end are kept, and the full output is saved to a file under ${displayDir(limits)} whose path the result gives; read it with read_file (offset/limit) or search it with grep.`,
    '- `cmd &` starts a background job: the call returns when the shell exits, without waiting for the job or collecting its later output, so redirect it to a file (`cmd > out.log 2>&1 &`). Background jobs are stopped when the session ends.',
    '- When the OS sandbox is active, commands can write only inside the project (and directories the user allowed) and /tmp (private to this session), cannot change .git/config, .git/hooks or MewCode\'s settings, have no network unless the user allowed it, and background jobs end when the command ends. A "Read-only file system" or network error means the sandbox stopped it: tell the user what you need instead of working around it.',
  ].join('\n');
}

function displayDir(limits: OutputLimits): string {
  // The description must be byte-identical across a session (K3): only the default's shape.
  return limits.spillDir().includes('.mewcode') ? '.mewcode/tool-output/' : 'the tool-output directory';
}

/** A number of ms (a numeric string is accepted: models sometimes quote numbers). */
export function parseTimeout(raw: unknown): number | undefined | { error: string } {
  if (raw === undefined || raw === null) return undefined;
  const value = typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return { error: `"timeout" must be a number of milliseconds between 1 and ${MAX_TIMEOUT_MS} (got ${JSON.stringify(raw)}); omit it for the default of ${DEFAULT_TIMEOUT_MS}.` };
  }
  const rounded = Math.round(value);
  if (rounded < 1) return { error: `"timeout" must be at least 1 ms (got ${value}); omit it for the default of ${DEFAULT_TIMEOUT_MS}.` };
  return Math.min(rounded, MAX_TIMEOUT_MS);
}

