/** Projects and homes with hook configuration: MewCode rule files, or Claude-shaped hooks in settings. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { temp } from '../../support/temp-dirs.js';

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
