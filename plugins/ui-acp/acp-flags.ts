/**
 * `mewcode acp [flags]`: the flags an editor's agent settings may pass (`args`), and the
 * CliOptions every session of this process starts from, as the CLI builds them for a run.
 */
import { parseArgs } from 'node:util';
import type { CliOptions } from '../../types/plugin.js';
import { ACP_USAGE } from './usage.js';
import { trustProjectFlag } from '../../sdk/subcommand-args.js';
import { gatherRuleLists, RULE_LIST_OPTIONS, type ArgToken } from '../../sdk/rule-list-args.js';
import { readPermissionModeFlags } from '../../sdk/permission-mode-flag.js';

export type AcpFlags = { ok: true; base: Omit<CliOptions, 'cwd'> } | { ok: false; error: string };

export function parseAcpFlags(argv: readonly string[], env: NodeJS.ProcessEnv): AcpFlags {
  let values;
  let tokens;
  try {
    // Positionals are read below: the words after a rule flag are more rules, as in Claude Code.
    ({ values, tokens } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      tokens: true,
      options: {
        provider: { type: 'string' },
        model: { type: 'string' },
        'permission-mode': { type: 'string' },
        'dangerously-skip-permissions': { type: 'boolean' },
        'trust-project': { type: 'boolean' },
        'dangerously-skip-sandbox': { type: 'boolean' },
        'max-turns': { type: 'string' },
        ...RULE_LIST_OPTIONS,
        debug: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, error: `${error instanceof Error ? error.message.split('\n')[0] : String(error)}; usage: mewcode ${ACP_USAGE}` };
  }
  const modeFlags = readPermissionModeFlags(values['permission-mode'], values['dangerously-skip-permissions'] === true);
  if (!modeFlags.ok) return { ok: false, error: modeFlags.error };
  // No prompt on this command line: every word after a rule flag is a rule; any other word is an error.
  const rules = gatherRuleLists(tokens as ArgToken[], 'rules');
  if (!rules.ok) return { ok: false, error: rules.error };
  if (rules.positionals.length > 0) return { ok: false, error: `Unexpected argument '${rules.positionals[0]}'; usage: mewcode ${ACP_USAGE}` };
  const maxTurns = values['max-turns'];
  if (maxTurns !== undefined && !/^[1-9]\d*$/.test(maxTurns.trim())) return { ok: false, error: `--max-turns must be a whole number of at least 1 (got "${maxTurns}")` };
  const base: Omit<CliOptions, 'cwd'> = {
    outputFormat: 'text',
    permissionMode: modeFlags.mode ?? 'default',
    permissionModeGiven: modeFlags.mode !== undefined,
    debugBoot: false,
    debug: values.debug === true,
    allowedTools: rules.allowedTools,
    disallowedTools: rules.disallowedTools,
    trustProject: trustProjectFlag(values['trust-project'], env),
    dangerouslySkipSandbox: values['dangerously-skip-sandbox'] === true,
  };
  if (modeFlags.dontAsk) base.dontAsk = true;
  if (values.provider !== undefined) base.provider = values.provider;
  if (values.model !== undefined) base.model = values.model;
  if (maxTurns !== undefined) base.maxTurns = Number(maxTurns);
  return { ok: true, base };
}
