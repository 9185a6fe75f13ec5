/** A project and home with MewCode hook rule files (`~/.mewcode/hooks.yaml`, optionally the project's). */
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
