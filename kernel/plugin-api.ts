/**
 * What an external (npm) plugin's factory receives: the kernel's own copies of inversify and the
 * contract helpers, so the plugin never loads a second inversify (a second copy would cost start-up
 * time and could not share the kernel's decorators' metadata).
 *   export default (api) => api.definePlugin({ name: 'my-plugin', kernel: '^0.2.0', … })
 * Every factory is handed this one object, and the factories run side by side (a configured
 * plugin's while an organisation's async factory still awaits), so it is frozen, as are the tables
 * it carries (TOKENS and PermissionStage, frozen in their modules).
 */
import { ContainerModule, inject, injectable, multiInject, optional } from 'inversify';
import { definePlugin } from '../types/plugin.js';
import { TOKENS } from '../types/tokens.js';
import { PermissionStage } from '../types/permissions.js';
import { ProviderError } from '../types/provider.js';
import { KERNEL_VERSION } from './version.js';
import { hardenExports } from '../types/harden-exports.js';

export const pluginApi = Object.freeze({
  version: KERNEL_VERSION,
  definePlugin,
  TOKENS,
  PermissionStage,
  ProviderError,
  ContainerModule,
  injectable,
  inject,
  multiInject,
  optional,
});

// Its classes and functions too (inversify's ContainerModule and decorators, ProviderError):
// every factory gets the same ones the kernel uses.
hardenExports(pluginApi);

export type PluginApi = typeof pluginApi;
