/**
 * Argument parsing for a plugin's `mewcode <name> …` subcommand (types/cli.ts), with Node's own
 * util.parseArgs: strict (an unknown flag is a usage error), and the messages every MewCode
 * command gives. `--trust-project` (or MEWCODE_TRUST_PROJECT=1) is read as for a run.
 */
import { parseArgs } from 'node:util';
import type { SubcommandContext } from '../types/cli.js';

export type SubcommandFlags = Record<string, { type: 'boolean' | 'string'; short?: string; multiple?: boolean }>;

export interface ParsedSubcommand {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/** Environment values that switch a boolean on (`MEWCODE_TRUST_PROJECT=1` for CI). */
const ENV_TRUE = new Set(['1', 'true']);

/** --trust-project, or MEWCODE_TRUST_PROJECT=1 for CI. */
export function trustProjectFlag(given: unknown, env: Readonly<Record<string, string | undefined>>): boolean {
  return given === true || ENV_TRUE.has((env.MEWCODE_TRUST_PROJECT ?? '').trim().toLowerCase());
}

/**
 * The command's flags and words, or the exit code when it already answered: `--help` prints the
 * usage (exit 0), a bad flag prints `mewcode: <problem>; <usage>` to stderr (exit 2).
 */
export function parseSubcommandArgs(context: Pick<SubcommandContext, 'argv' | 'out' | 'err'>, flags: SubcommandFlags, usage: string): ParsedSubcommand | number {
  let parsed;
  try {
    parsed = parseArgs({ args: [...context.argv], allowPositionals: true, strict: true, options: { ...flags, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return usageError(context, (error as Error).message.split('. ')[0]?.replace(/\.$/, '') ?? String(error), usage);
  }
  if (parsed.values.help === true) {
    context.out(`${usage}\n`);
    return 0;
  }
  return { values: parsed.values as ParsedSubcommand['values'], positionals: parsed.positionals };
}

/** `mewcode: <problem>; <usage>` on stderr; exit 2. */
export function usageError(context: Pick<SubcommandContext, 'err'>, problem: string, usage: string): number {
  context.err(`mewcode: ${problem}; ${usage}\n`);
  return 2;
}

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
