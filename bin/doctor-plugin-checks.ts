/**
 * The plugins' `mewcode doctor` checks (types/cli.ts), run on the booted kernel in plugin order.
 * A check that throws or answers something malformed is a line naming its plugin, never the end
 * of doctor.
 */
import type { DoctorCheck, DoctorContext, DoctorFinding } from '../types/cli.js';
import type { MewcodePlugin } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import { collectDoctorChecks, resolveBuildPlugins, type Contribution } from '../kernel/cli-contributions.js';
import type { CheckLine } from './doctor-report.js';
import { noSandboxPluginLines } from './doctor-kernel.js';

/** The lines doctor itself writes: a plugin's check may not take these names. */
const DOCTOR_OWN_CHECKS: ReadonlySet<string> = new Set(['node', 'config', 'trust', 'provider', 'proxy', 'plugins']);
const STATUSES: ReadonlySet<string> = new Set(['ok', 'warn', 'fail']);

export async function pluginDoctorChecks(context: DoctorContext, plugins: readonly MewcodePlugin[]): Promise<CheckLine[]> {
  const lines: CheckLine[] = [];
  const clashes: CheckLine[] = [];
  let checks: Contribution<DoctorCheck>[];
  try {
    // Warnings of the plugin set itself (a plugin that cannot load…) are the kernel boot's, shown on the plugins line.
    const build = await resolveBuildPlugins({ plugins, config: context.config, projectRoot: context.cwd, homeDir: context.homeDir, trust: context.trust, env: context.env, warn: () => undefined, requiredFailure: 'warn' });
    checks = collectDoctorChecks(build, { reserved: DOCTOR_OWN_CHECKS, warn: (message) => clashes.push({ status: 'warn', check: 'plugins', message, hint: 'see the plugins named' }) });
  } catch {
    checks = []; // a required plugin that cannot load, or managed settings that cannot be read: the boot's lines say it
  }
  for (const { item: check, plugin } of checks) {
    try {
      const found: unknown = await check.run(context);
      if (!Array.isArray(found) || !found.every(isFinding)) {
        lines.push({ status: 'warn', check: check.name, message: `plugin ${plugin.name}'s check ${check.name} answered something that is not a list of findings`, hint: 'a bug in that plugin' });
        continue;
      }
      lines.push(...found.map((finding) => ({ status: finding.status, check: finding.check, message: finding.message, ...(typeof finding.hint === 'string' ? { hint: finding.hint } : {}) })));
    } catch (error) {
      lines.push({ status: 'fail', check: check.name, message: `plugin ${plugin.name}'s check ${check.name} failed: ${error instanceof Error ? error.message : String(error)}`, hint: 'a bug in that plugin, or what it checks is broken' });
    }
  }
  if (context.kernel && !context.kernel.container.isBound(TOKENS.CommandSandbox)) lines.push(...noSandboxPluginLines());
  return [...lines, ...clashes];
}

function isFinding(value: unknown): value is DoctorFinding {
  if (typeof value !== 'object' || value === null) return false;
  const finding = value as Partial<DoctorFinding>;
  return STATUSES.has(finding.status as string) && typeof finding.check === 'string' && typeof finding.message === 'string';
}
