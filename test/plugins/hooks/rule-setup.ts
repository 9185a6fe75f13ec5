/** Projects and homes with hook configuration: MewCode rule files, or Claude-shaped hooks in settings. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { temp } from '../../support/temp-dirs.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import type { WorkspaceTrust } from '../../../types/trust.js';

export function ruleSetup(userRules: string, projectRules?: string): { root: string; home: string } {
  const root = temp('mewcode-rules-root-');
  const home = temp('mewcode-rules-home-');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'hooks.yaml'), userRules);
  if (projectRules !== undefined) {
    mkdirSync(path.join(root, '.mewcode'));
    writeFileSync(path.join(root, '.mewcode', 'hooks.yaml'), projectRules);
  }
  return { root, home };
}

/** A project and a home whose `~/.mewcode/settings.yaml` holds these Claude-shaped hooks. */
export function settingsSetup(hooks: Record<string, unknown>): { root: string; home: string } {
  const root = temp('mewcode-settings-root-');
  const home = temp('mewcode-settings-home-');
  mkdirSync(path.join(home, '.mewcode'));
  writeFileSync(path.join(home, '.mewcode', 'settings.yaml'), JSON.stringify({ hooks }));
  return { root, home };
}

/**
 * Kernel options for a project the user trusts (`--trust-project`): the user's own hooks run on
 * the host there, as Claude Code runs them (in an untrusted project they run in the OS sandbox).
 */
export async function trustedProject(root: string, home: string): Promise<{ projectRoot: string; homeDir: string; trust: WorkspaceTrust }> {
  return { projectRoot: root, homeDir: home, trust: await createWorkspaceTrust({ projectRoot: root, homeDir: home, flag: true }) };
}
