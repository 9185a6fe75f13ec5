/**
 * `/plugin` in a session: the installed Claude Code plugins, and turning one on or off. The change
 * is written to the manifest at once and applies from the next start (a running session keeps the
 * commands, agents, hooks and servers it started with). Marketplaces and installing are
 * `mewcode plugin …` in a shell: they fetch with git, which a session should not wait for.
 */
import { ManifestError, readManifest } from '../../config/claude-plugins/manifest.js';
import type { Command, CommandResult } from '../../types/commands.js';
import type { KernelApi } from '../../types/plugin.js';
import type { InstalledPluginSource } from './source.js';

const USAGE = 'usage: /plugin [list] | /plugin enable <plugin>[@<marketplace>] | /plugin disable <plugin>[@<marketplace>]';

export function pluginCommand(kernel: KernelApi, source: InstalledPluginSource): Command {
  return {
    name: 'plugin',
    description: 'List installed Claude Code plugins; enable or disable one (from the next start)',
    argumentHint: '[list | enable <plugin> | disable <plugin>]',
    async run(_session, args): Promise<CommandResult> {
      const [verb = 'list', target, ...rest] = args.trim().split(/\s+/).filter(Boolean);
      try {
        if (verb === 'list' && target === undefined) return { output: listing(kernel, source) };
        if ((verb === 'enable' || verb === 'disable') && target !== undefined && rest.length === 0) {
          // Imported when used: it brings the install code (git, copies) that a start never needs.
          const { setPluginEnabled } = await import('../../config/claude-plugins/install.js');
          const { plugin, changed } = setPluginEnabled(kernel.homeDir, target, verb === 'enable');
          const id = `${plugin.name}@${plugin.marketplace}`;
          const state = verb === 'enable' ? 'enabled' : 'disabled';
          const overridden = source.result().states.find((s) => s.id === id)?.decidedBy;
          const lines = [changed ? `${id} is now ${state}; this applies from the next start of MewCode (this session keeps what it started with).` : `${id} was already ${state}.`];
          if (overridden && overridden.enabled !== (verb === 'enable')) lines.push(`Note: ${overridden.file} sets enabledPlugins["${id}"] to ${overridden.enabled}, which wins over this switch; change it there.`);
          return { output: lines.join('\n') };
        }
        const shell = shellCommand(verb, target, rest);
        if (shell) return { isError: true, output: `/plugin ${verb} is not run inside a session (it fetches with git and changes what a session has loaded); in a shell: ${shell}\nIt applies from the next start of MewCode.` };
        return { isError: true, output: USAGE };
      } catch (error) {
        return { isError: true, output: `/plugin: ${(error as Error).message}` };
      }
    },
  };
}

/** Claude Code's in-session `/plugin install|uninstall|update|marketplace …` as the `mewcode plugin` command that does it. */
function shellCommand(verb: string, target: string | undefined, rest: readonly string[]): string | undefined {
  if ((verb === 'install' || verb === 'uninstall' || verb === 'update') && target !== undefined && rest.length === 0) {
    return `mewcode plugin ${verb} ${target}`;
  }
  if (verb === 'marketplace' || verb === 'market') {
    const [sub, ...names] = [target, ...rest].filter((word): word is string => word !== undefined);
    if (sub === 'add' && names.length === 1) return `mewcode plugin marketplace add ${names[0]}`;
    if ((sub === 'remove' || sub === 'rm') && names.length === 1) return `mewcode plugin marketplace remove ${names[0]}`;
    if ((sub === 'update' && names.length <= 1) || (sub === 'list' && names.length === 0)) return `mewcode plugin marketplace ${[sub, ...names].join(' ')}`;
  }
  return undefined;
}

function listing(kernel: KernelApi, source: InstalledPluginSource): string {
  try {
    readManifest(kernel.homeDir);
  } catch (error) {
    if (error instanceof ManifestError) return `/plugin: ${error.message}`;
    throw error;
  }
  const { states, notices } = source.result();
  const lines = states.map((s) => {
    const version = s.plugin.version ? ` ${s.plugin.version}` : '';
    const commit = s.plugin.commit ? ` (${s.plugin.commit.slice(0, 7)})` : '';
    const why = s.decidedBy ? ` by ${s.decidedBy.file}` : '';
    return `  ${s.enabled ? 'on ' : 'off'}  ${s.id}${version}${commit}${why}`;
  });
  const head = lines.length > 0 ? ['Claude Code plugins (on/off as this session started):', ...lines] : ['No Claude Code plugins are installed. Install one from a shell: mewcode plugin marketplace add <git URL | folder>, then mewcode plugin install <plugin>@<marketplace>.'];
  const tail = lines.length > 0 ? ['/plugin enable|disable <plugin> changes one from the next start; marketplaces and installs: `mewcode plugin …` in a shell.'] : [];
  return [...head, ...notices.map((n) => `  ${n}`), ...tail].join('\n');
}
