/** `install_skill` (S7): placeholder until the installer lands. */
import type { Tool } from '../../types/tools.js';
import { installSkillDefinition } from './install-definition.js';
import type { SkillsRuntime } from './runtime.js';

export function installSkillTool(_runtime: SkillsRuntime): Tool {
  return { ...installSkillDefinition, async execute() { return { content: 'not yet', isError: true }; } };
}
