/**
 * `mewcode acp [flags]`: the flags an editor's agent settings may pass (`args`), and the
 * CliOptions every session of this process starts from, as the CLI builds them for a run.
 */
import { parseArgs } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../../types/permissions.js';
import type { CliOptions } from '../../types/plugin.js';

import { ACP_USAGE } from './usage.js';
import { splitRuleList, trustProjectFlag } from '../../sdk/subcommand-args.js';


export type AcpFlags = { ok: true; base: Omit<CliOptions, 'cwd'> } | { ok: false; error: string };

export function parseAcpFlags(argv: readonly string[], env: NodeJS.ProcessEnv): AcpFlags {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      allowPositionals: false,
      strict: true,
      options: {
        provider: { type: 'string' },
        model: { type: 'string' },
        'permission-mode': { type: 'string' },
        'trust-project': { type: 'boolean' },
        'dangerously-skip-sandbox': { type: 'boolean' },
        'max-turns': { type: 'string' },
        allowedTools: { type: 'string', multiple: true },
        disallowedTools: { type: 'string', multiple: true },
        debug: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { ok: false, error: `${error instanceof Error ? error.message.split('\n')[0] : String(error)}; usage: mewcode ${ACP_USAGE}` };
  }
  const mode = values['permission-mode'];
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    return { ok: false, error: `--permission-mode must be one of ${PERMISSION_MODES.join(', ')} (got "${mode}")` };
  }
  const maxTurns = values['max-turns'];
  if (maxTurns !== undefined && !/^[1-9]\d*$/.test(maxTurns.trim())) return { ok: false, error: `--max-turns must be a whole number of at least 1 (got "${maxTurns}")` };
  const base: Omit<CliOptions, 'cwd'> = {
    outputFormat: 'text',
    permissionMode: (mode ?? 'default') as PermissionMode,
    permissionModeGiven: mode !== undefined,
    debugBoot: false,
    debug: values.debug === true,
    allowedTools: splitRuleList(values.allowedTools ?? []),
    disallowedTools: splitRuleList(values.disallowedTools ?? []),
    trustProject: trustProjectFlag(values['trust-project'], env),
    dangerouslySkipSandbox: values['dangerously-skip-sandbox'] === true,
  };
  if (values.provider !== undefined) base.provider = values.provider;
  if (values.model !== undefined) base.model = values.model;
  if (maxTurns !== undefined) base.maxTurns = Number(maxTurns);
  return { ok: true, base };
}
