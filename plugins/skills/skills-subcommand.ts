/**
 * `mewcode skills` lists the catalog a run here would use — name, mode, source root, description,
 * and every problem found (fixed-up values, skipped folders with the reason) — without booting a
 * kernel. `mewcode skills install <url> [--project]` installs one as the install_skill tool does;
 * running the command is the user's approval.
 */
import { loadConfig } from '../../config/index.js';
import { createWorkspaceTrust } from '../../config/trust.js';
import type { SubcommandContext } from '../../types/cli.js';
import { parseSubcommandArgs, trustProjectFlag, usageError } from '../../sdk/subcommand-args.js';
import { loadCatalog, type SkillCatalog } from './catalog.js';
import { describeCatalog } from './listing.js';
import { installAndReload } from './install-and-reload.js';
import { rootsWrittenByProject, skillRoots } from './roots.js';
import { DEFAULT_SKILLS_SETTINGS, skillsSection } from './settings.js';
import { messageLines } from '../../types/notice-line.js';

export const SKILLS_USAGE = 'usage: mewcode skills [--trust-project] | mewcode skills install <url> [--project]';

export async function runSkillsCommand(context: SubcommandContext): Promise<number> {
  const parsed = parseSubcommandArgs(context, { 'trust-project': { type: 'boolean' }, project: { type: 'boolean' } }, SKILLS_USAGE);
  if (typeof parsed === 'number') return parsed;
  const trustProject = trustProjectFlag(parsed.values['trust-project'], context.env);
  const [sub, ...rest] = parsed.positionals;
  if (sub === undefined || (sub === 'list' && rest.length === 0)) {
    if (parsed.values.project) return usageError(context, '--project is for skills install', SKILLS_USAGE);
    const { load } = await catalogLoader(context, trustProject);
    context.out(describeCatalog(await load(), context.homeDir));
    return 0;
  }
  if (sub === 'install' && rest.length === 1) return install(context, trustProject, rest[0]!, parsed.values.project ? 'project' : 'user');
  if (sub === 'install') return usageError(context, 'skills install takes one URL', SKILLS_USAGE);
  return usageError(context, `unknown skills subcommand "${parsed.positionals.join(' ')}"`, SKILLS_USAGE);
}

async function catalogLoader(context: SubcommandContext, trustProject: boolean): Promise<{ load: () => Promise<SkillCatalog> }> {
  const { cwd, homeDir } = context;
  const trust = await createWorkspaceTrust({ projectRoot: cwd, homeDir, env: context.env, flag: trustProject });
  const config = await loadConfig({ cwd, homeDir, trust });
  for (const warning of config.warnings) context.err(messageLines('mewcode: ', warning));
  const raw = config.section(skillsSection.key);
  const parsed = raw === undefined ? undefined : skillsSection.parse(raw);
  if (parsed && !parsed.ok) {
    for (const issue of parsed.issues) context.err(`mewcode: config: ${config.locate([skillsSection.key, ...issue.path]) ?? 'skills'}: skills.${issue.path.join('.')}: ${issue.message}; the section is ignored\n`);
  }
  const settings = parsed?.ok ? parsed.value : DEFAULT_SKILLS_SETTINGS;
  const roots = skillRoots(homeDir, cwd, settings.extraRoots, parsed?.ok ? rootsWrittenByProject(config) : undefined);
  return { load: () => loadCatalog(roots, { projectTrusted: trust.isTrusted() }) };
}

async function install(context: SubcommandContext, trustProject: boolean, url: string, scope: 'user' | 'project'): Promise<number> {
  const { load } = await catalogLoader(context, trustProject);
  const result = await installAndReload({ kernel: { homeDir: context.homeDir, projectRoot: context.cwd }, reload: load }, { url, scope });
  if (result.ok) context.out(`${result.text}\n`);
  else context.err(messageLines('mewcode: ', result.text));
  return result.ok ? 0 : 1;
}
