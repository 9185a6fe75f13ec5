/** `/skills` (U1): the catalog in use, as `mewcode skills` prints it. */
import type { Command } from '../../types/commands.js';
import { describeCatalog } from './listing.js';
import type { SkillsRuntime } from './runtime.js';

export function skillsListCommand(runtime: SkillsRuntime): Command {
  return {
    name: 'skills',
    description: 'List the skills (name, mode, folder, description) and any problems found',
    async run() {
      return { output: describeCatalog(runtime.store.current, runtime.kernel.homeDir).trimEnd() };
    },
  };
}
