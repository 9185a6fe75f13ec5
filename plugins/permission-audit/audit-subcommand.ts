/**
 * `mewcode audit verify [--file F]`: checks the audit log's hash chain (verify.ts). Loads nothing
 * but this plugin's verifier: it must work when the kernel or another plugin cannot load.
 */
import path from 'node:path';
import type { SubcommandContext } from '../../types/cli.js';
import { parseSubcommandArgs, usageError } from '../../sdk/subcommand-args.js';
import { runAuditVerify } from './verify.js';

/** The audit log checked when no --file is given. */
export const DEFAULT_AUDIT_FILE = path.join('.mewcode', 'audit.jsonl');

export const AUDIT_USAGE = 'usage: mewcode audit verify [--file F]';

export async function runAuditCommand(context: SubcommandContext): Promise<number> {
  const parsed = parseSubcommandArgs(context, { file: { type: 'string' } }, AUDIT_USAGE);
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length !== 1 || positionals[0] !== 'verify') {
    const got = positionals.length === 0 ? 'no subcommand' : `"${positionals.join(' ')}"`;
    return usageError(context, `audit takes one subcommand, verify (got ${got})`, AUDIT_USAGE);
  }
  const file = values.file;
  if (typeof file === 'string' && file.trim() === '') return usageError(context, '--file needs a path', AUDIT_USAGE);
  return runAuditVerify(path.resolve(context.cwd, typeof file === 'string' ? file : DEFAULT_AUDIT_FILE), { stdout: context.out, stderr: context.err }, context.homeDir);
}
