/** An install followed by a catalog reload, worded once for the tool and `mewcode skills install`. */
import { installEndpoints } from './install/limits.js';
import { installSkill, type InstallReport } from './install/installer.js';
import type { SkillCatalog } from './catalog.js';

export interface InstallHost {
  readonly kernel: { homeDir: string; projectRoot: string };
  reload(): Promise<SkillCatalog>;
}

export interface InstallResult {
  ok: boolean;
  text: string;
  report?: InstallReport;
}

export async function installAndReload(host: InstallHost, request: { url: string; scope: 'user' | 'project'; signal?: AbortSignal; env?: Readonly<Record<string, string | undefined>> }): Promise<InstallResult> {
  const outcome = await installSkill({
    url: request.url,
    scope: request.scope,
    homeDir: host.kernel.homeDir,
    projectRoot: host.kernel.projectRoot,
    endpoints: installEndpoints(request.env),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (!outcome.ok) return { ok: false, text: `The skill was not installed: ${outcome.error}` };
  const { report } = outcome;
  const catalog = await host.reload();
  const lines = [`Installed the skill "${report.name}" (${report.files} file${report.files === 1 ? '' : 's'}, ${report.bytes} bytes) in ${report.dir}${report.replaced ? ', replacing the one there' : ''}.`];
  const skill = catalog.get(report.name);
  if (skill && skill.dir === report.dir) lines.push(`It is available now as /${skill.name} and through load_skill. ${skill.description}`);
  else if (skill) lines.push(`Another skill of that name takes precedence: ${skill.file}.`);
  else {
    const problem = catalog.problems.find((p) => p.file.startsWith(report.dir + '/'));
    lines.push(`It is not loaded: ${problem?.message ?? 'its folder is not in a skills root this session reads'}.`);
  }
  if (report.skipped.length > 0) lines.push(`Not installed (links and submodules): ${report.skipped.join(', ')}.`);
  for (const warning of report.warnings) lines.push(`Note: ${warning}.`);
  lines.push('A skill is instructions the agent will follow: read its SKILL.md before relying on it.');
  return { ok: true, text: lines.join('\n'), report };
}
