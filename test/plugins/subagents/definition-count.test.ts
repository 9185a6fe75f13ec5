/**
 * A directory of agent definitions is read up to MAX_AGENT_FILES files (by name), by the loader
 * and by the trust scan alike: a repository with thousands of `*.md` files in `.claude/agents`
 * cannot make every start read (and the trust notice list) all of them. Boundary: exactly the
 * limit is read whole and silently; one more is left out with a warning naming the directory.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_AGENT_FILES, scanProject } from '../../../config/trust-scan.js';
import { loadDefinitions } from '../../../plugins/subagents/definitions.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';

afterEach(removeTempDirs);

function agentsDir(base: string, count: number): string {
  const dir = path.join(base, '.claude', 'agents');
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < count; i++) {
    const name = `a${String(i).padStart(4, '0')}`;
    writeFileSync(path.join(dir, `${name}.md`), `---\nname: ${name}\ndescription: agent ${i}\n---\nPrompt ${i}.\n`);
  }
  return dir;
}

test(`the loader reads ${MAX_AGENT_FILES} definition files of a directory, and says so when there are more`, async () => {
  const atLimit = agentsDir(temp('mewcode-defs-'), MAX_AGENT_FILES);
  const whole = await loadDefinitions([{ dir: atLimit, project: false }], undefined);
  expect(whole.roles).toHaveLength(MAX_AGENT_FILES);
  expect(whole.warnings).toEqual([]);

  const over = agentsDir(temp('mewcode-defs-'), MAX_AGENT_FILES + 1);
  const cut = await loadDefinitions([{ dir: over, project: false }], undefined);
  expect(cut.roles).toHaveLength(MAX_AGENT_FILES);
  expect(cut.roles.map((r) => r.name)).not.toContain(`a${String(MAX_AGENT_FILES).padStart(4, '0')}`);
  expect(cut.warnings).toEqual([`subagents: ${over}: more than ${MAX_AGENT_FILES} definition files; only the first ${MAX_AGENT_FILES} by name are read`]);
});

test(`the trust scan looks at the same ${MAX_AGENT_FILES} files of a project's agent directory, and says so when there are more`, async () => {
  const home = temp('mewcode-defs-home-');
  const atLimit = temp('mewcode-defs-root-');
  agentsDir(atLimit, MAX_AGENT_FILES);
  const whole = await scanProject(atLimit, home);
  expect(whole.settings.filter((s) => s.key === 'agents')).toHaveLength(MAX_AGENT_FILES);
  expect(whole.warnings).toEqual([]);

  const over = temp('mewcode-defs-root-');
  const dir = agentsDir(over, MAX_AGENT_FILES + 1);
  const cut = await scanProject(over, home);
  expect(cut.settings.filter((s) => s.key === 'agents')).toHaveLength(MAX_AGENT_FILES);
  expect(cut.warnings).toEqual([`trust: ${dir}: more than ${MAX_AGENT_FILES} agent definition files; only the first ${MAX_AGENT_FILES} by name are looked at (the rest are never used)`]);
});
