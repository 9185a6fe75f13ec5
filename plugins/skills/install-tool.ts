/**
 * `install_skill {url, scope?}` (S7): not read-only and in the Exec category, so the permission
 * engine asks the user (it writes to disk and fetches third-party instructions the agent will
 * follow); the plugin's own layer (index.ts) asks in bypassPermissions mode too. After the install the catalog is reloaded, so `/<name>` and load_skill work at once.
 */
import type { Tool } from '../../types/tools.js';
import { installSkillDefinition } from './install-definition.js';
import { installAndReload } from './install-and-reload.js';
import type { SkillsRuntime } from './runtime.js';
import { installRoot } from './roots.js';

export function installSkillTool(runtime: SkillsRuntime): Tool {
  return {
    ...installSkillDefinition,
    // What it writes, for the audit record and a rule's pattern: the skills folder the skill's
    // folder is made in (its name comes from the SKILL.md it fetches), then the URL. Not a path
    // target: the file sandbox would refuse the user's own ~/.mewcode/skills as outside the project.
    permissionTarget: (input) => ({
      kind: 'named',
      name: installRoot(input.scope === 'project' ? 'project' : 'user', runtime.kernel.homeDir, runtime.kernel.projectRoot),
      ...(typeof input.url === 'string' && input.url !== '' ? { detail: input.url } : {}),
    }),
    async execute(input, context) {
      if (typeof input.url !== 'string' || !input.url.trim()) return { content: 'install_skill needs `url`: where the skill is.', isError: true };
      if (input.scope !== undefined && input.scope !== 'user' && input.scope !== 'project') return { content: '`scope` must be "user" or "project".', isError: true };
      const result = await installAndReload(runtime, { url: input.url, scope: input.scope ?? 'user', signal: context.signal });
      return { content: result.text, isError: !result.ok };
    },
  };
}
