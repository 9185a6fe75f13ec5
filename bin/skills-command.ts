/**
 * `mewcode skills` lists the catalog a run here would use — name, mode, source root, description,
 * and every problem found (fixed-up values, skipped folders with the reason) — without booting a
 * kernel. `mewcode skills install <url> [--project]` installs one (S7) as the install_skill
 * tool does; running the command is the user's approval.
 */
import os from 'node:os';
import { loadConfig } from '../config/index.js';
import { terminal } from '../config/terminal-safe.js';
import { createWorkspaceTrust } from '../config/trust.js';
import { loadCatalog, type SkillCatalog } from '../plugins/skills/catalog.js';
import { describeCatalog } from '../plugins/skills/listing.js';
import { installAndReload } from '../plugins/skills/install-and-reload.js';
import { skillRoots } from '../plugins/skills/roots.js';
import { DEFAULT_SKILLS_SETTINGS, skillsSection } from '../plugins/skills/settings.js';
import type { DoctorOptions } from './cli-args.js';

async function catalogLoader(options: DoctorOptions): Promise<{ load: () => Promise<SkillCatalog>; homeDir: string }> {
  const homeDir = os.homedir();
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: process.env, flag: options.trustProject });
  const config = await loadConfig({ cwd: options.cwd, homeDir, trust });
  for (const warning of config.warnings) terminal.err(`mewcode: ${warning}\n`);
  const raw = config.section(skillsSection.key);
  const parsed = raw === undefined ? undefined : skillsSection.parse(raw);
  if (parsed && !parsed.ok) {
    for (const issue of parsed.issues) terminal.err(`mewcode: config: ${config.locate([skillsSection.key, ...issue.path]) ?? 'skills'}: skills.${issue.path.join('.')}: ${issue.message}; the section is ignored\n`);
  }
  const settings = parsed?.ok ? parsed.value : DEFAULT_SKILLS_SETTINGS;
  const roots = skillRoots(homeDir, options.cwd, settings.extraRoots);
  return { homeDir, load: () => loadCatalog(roots, { projectTrusted: trust.isTrusted() }) };
}

export async function listSkills(options: DoctorOptions): Promise<number> {
  const { load, homeDir } = await catalogLoader(options);
  terminal.out(describeCatalog(await load(), homeDir));
  return 0;
}

export async function installSkillCommand(options: DoctorOptions, url: string, scope: 'user' | 'project'): Promise<number> {
  const { load, homeDir } = await catalogLoader(options);
  const result = await installAndReload({ kernel: { homeDir, projectRoot: options.cwd }, reload: load }, { url, scope });
  (result.ok ? terminal.out : terminal.err)(`${result.ok ? '' : 'mewcode: '}${result.text}\n`);
  return result.ok ? 0 : 1;
}
