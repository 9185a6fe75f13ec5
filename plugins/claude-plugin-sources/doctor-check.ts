/** `mewcode doctor`: each installed Claude Code plugin, whether this project uses it, and what is wrong. */
import { enabledPlugins } from '../../config/claude-plugins/enabled.js';
import type { DoctorContext, DoctorFinding } from '../../types/cli.js';

export function checkClaudePlugins(context: DoctorContext): DoctorFinding[] {
  const result = enabledPlugins(context.cwd, context.homeDir, context.trust);
  const findings: DoctorFinding[] = [];
  for (const warning of result.warnings) findings.push({ status: 'warn', check: 'installed-plugins', message: warning });
  for (const notice of result.notices) findings.push({ status: 'warn', check: 'installed-plugins', message: notice });
  for (const state of result.states) {
    const version = state.plugin.version ? ` ${state.plugin.version}` : '';
    const commit = state.plugin.commit ? ` at ${state.plugin.commit.slice(0, 7)}` : '';
    const why = state.decidedBy ? ` (by ${state.decidedBy.file})` : '';
    findings.push({ status: 'ok', check: 'installed-plugins', message: `${state.id}${version}${commit}: ${state.enabled ? 'enabled' : 'disabled'}${why}, from ${state.plugin.from}` });
  }
  if (findings.length === 0) findings.push({ status: 'ok', check: 'installed-plugins', message: 'no Claude Code plugins installed' });
  return findings;
}
