/** The plugins the `mewcode` CLI is built from. A custom build passes its own list to Kernel.create. */
import type { MewcodePlugin } from '../types/plugin.js';
import providerAnthropic from './provider-anthropic/index.js';
import providerOpenai from './provider-openai/index.js';
import permissionMode from './permission-mode/index.js';
import systemPrompt from './system-prompt/index.js';
import environment from './environment/index.js';
import uiHeadless from './ui-headless/index.js';
import outputLimits from './output-limits/index.js';

export const defaultPlugins: readonly MewcodePlugin[] = [
  providerAnthropic,
  providerOpenai,
  systemPrompt,
  environment,
  permissionMode,
  outputLimits,
  uiHeadless,
];
