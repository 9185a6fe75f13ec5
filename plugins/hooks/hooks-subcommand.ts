/** `mewcode hooks`: the hook rules a run here would use (listing.ts), read without booting a kernel. */
import { createWorkspaceTrust } from '../../config/trust.js';
import type { SubcommandContext } from '../../types/cli.js';
import { parseSubcommandArgs, trustProjectFlag, usageError } from '../../sdk/subcommand-args.js';
import { describeHooks } from './listing.js';
import { messageLines } from '../../types/notice-line.js';

export const HOOKS_USAGE = 'usage: mewcode hooks [--trust-project]';

export async function listHooks(context: SubcommandContext): Promise<number> {
  const parsed = parseSubcommandArgs(context, { 'trust-project': { type: 'boolean' } }, HOOKS_USAGE);
  if (typeof parsed === 'number') return parsed;
  if (parsed.positionals.length > 0) return usageError(context, `hooks takes no arguments (got "${parsed.positionals.join(' ')}")`, HOOKS_USAGE);
  const trust = await createWorkspaceTrust({ projectRoot: context.cwd, homeDir: context.homeDir, env: context.env, flag: trustProjectFlag(parsed.values['trust-project'], context.env) });
  const listing = await describeHooks(context.cwd, context.homeDir, trust);
  for (const warning of listing.warnings) context.err(messageLines('mewcode: ', warning));
  context.out(listing.text);
  return 0;
}
