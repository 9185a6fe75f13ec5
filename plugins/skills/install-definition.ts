/** What the model sees of `install_skill` (S7), known at boot; the installer is imported on the first call. */
import type { ToolDefinitionPart } from '../../sdk/lazy-tool.js';

export const INSTALL_SKILL = 'install_skill';

export const installSkillDefinition: ToolDefinitionPart = {
  name: INSTALL_SKILL,
  description:
    'Install a skill from a URL: a github.com tree URL of a skill folder (https://github.com/<owner>/<repo>/tree/<ref>/<path>), ' +
    'a raw.githubusercontent.com URL of a single SKILL.md, or a skills.sh page (https://skills.sh/<org>/<name>). Other hosts are refused. ' +
    'The skill is available at once as /<name> and through load_skill. Needs the user\'s approval.',
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'Where the skill is.' },
      scope: { type: 'string', enum: ['user', 'project'], description: 'user (default): ~/.mewcode/skills; project: <root>/.mewcode/skills, shared with the team.' },
    },
    required: ['url'],
    additionalProperties: false,
  },
  readOnly: false,
  category: 'exec',
};
