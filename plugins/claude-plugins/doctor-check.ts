/** `mewcode doctor`: one line per Claude Code plugin of this run — what it contributes, then each problem with its file. */
import type { DoctorContext, DoctorFinding } from '../../types/cli.js';
import { describeClaudePlugin, type ClaudePluginBundles } from '../../types/claude-plugins.js';
import { TOKENS } from '../../types/tokens.js';

export const CHECK = 'claude-plugins';

export function claudePluginFindings(context: DoctorContext): DoctorFinding[] {
  const container = context.kernel?.container;
  if (!container?.isBound(TOKENS.ClaudePluginBundles)) return [];
  const bundles = container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list();
  const findings: DoctorFinding[] = [];
  for (const bundle of bundles) {
    const { summary, problems } = describeClaudePlugin(bundle);
    findings.push({ status: bundle.loaded ? 'ok' : 'fail', check: CHECK, message: summary, ...(bundle.loaded ? {} : { hint: 'fix the file named below' }) });
    for (const problem of problems) findings.push({ status: 'warn', check: CHECK, message: `${bundle.id}: ${problem}`, ...(bundle.loaded ? { hint: 'the rest of the plugin loads' } : {}) });
  }
  return findings;
}
