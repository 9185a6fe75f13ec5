/**
 * The Claude Code side of `mewcode plugin`: marketplaces (`marketplace add|list|update|remove`),
 * `install|uninstall|enable|disable`, and the Claude Code rows of `plugin list`. The work is done
 * by config/claude-plugins/ (shared with the claude-plugin-sources plugin); this file words it.
 */
import { existsSync } from 'node:fs';
import { enabledPlugins } from '../config/claude-plugins/enabled.js';
import { describeClaudePlugin } from '../types/claude-plugins.js';
import { findInstalled, installPlugin, setPluginEnabled, uninstallPlugin } from '../config/claude-plugins/install.js';
import { readManifest, type InstalledPlugin } from '../config/claude-plugins/manifest.js';
import { addMarketplace, describeSource, listMarketplaces, removeMarketplace, updateMarketplaces } from '../config/claude-plugins/marketplaces.js';
import { readPluginSettings } from '../config/claude-plugins/settings.js';
import { terminalSafe } from '../config/terminal-safe.js';
import { createWorkspaceTrust } from '../config/trust.js';
import type { ParsedCommand } from './cli-args.js';
import { messageLines } from '../types/notice-line.js';

export type ClaudePluginCommand = Extract<ParsedCommand, { kind: 'plugin'; action: 'install' | 'uninstall' | 'enable' | 'disable' | 'update' | 'marketplace' }>;

export interface Writers {
  homeDir: string;
  out(text: string): void;
  err(text: string): void;
}

/** One row of a listing: each field made terminal-safe, the tabs between them kept. */
const row = (...fields: string[]): string => fields.map((field) => terminalSafe(field)).join('\t');
const short = (commit: string | undefined): string => (commit ? commit.slice(0, 7) : '');
const NEXT_START = 'This applies from the next start of MewCode.';

export async function runClaudePluginCommand(command: ClaudePluginCommand, io: Writers): Promise<number> {
  const say = (text: string): void => io.out(`${terminalSafe(text)}\n`);
  const warn = (text: string): void => io.err(messageLines('mewcode: warning: ', terminalSafe(text)));
  const home = io.homeDir;
  if (command.action === 'marketplace') {
    switch (command.verb) {
      case 'add': {
        const { record, catalogue, alreadyAdded } = await addMarketplace(home, command.target, command.cwd);
        for (const w of catalogue.warnings) warn(w);
        const at = record.commit ? ` at ${short(record.commit)}` : '';
        say(alreadyAdded ? `The marketplace ${record.name} is already added from ${describeSource(record.source)}; \`mewcode plugin marketplace update ${record.name}\` fetches its newest commit.` : `Added the marketplace ${record.name} (${record.source.kind === 'git' ? `git ${record.source.url}${at}` : `folder ${record.root}, read in place`}): ${catalogue.plugins.length} plugin${catalogue.plugins.length === 1 ? '' : 's'}${catalogue.plugins.length > 0 ? `: ${catalogue.plugins.map((p) => p.name).join(', ')}` : ''}.`);
        if (!alreadyAdded && catalogue.plugins.length > 0) say(`Install one with: mewcode plugin install <plugin>@${record.name}`);
        return 0;
      }
      case 'list': {
        const all = listMarketplaces(home);
        if (all.length === 0) say('No plugin marketplaces are added. Add one with `mewcode plugin marketplace add <git URL | folder>`.');
        for (const { record, catalogue, error } of all) {
          const where = record.source.kind === 'git' ? `git ${record.source.url}${record.commit ? ` at ${short(record.commit)}` : ''}` : `folder ${record.source.path}`;
          io.out(`${row(record.name, where, catalogue ? `${catalogue.plugins.length} plugins: ${catalogue.plugins.map((p) => (p.version ? `${p.name} ${p.version}` : p.name)).join(', ')}` : `unreadable: ${error}`)}\n`);
          for (const w of catalogue?.warnings ?? []) warn(w);
        }
        return 0;
      }
      case 'update': {
        let failed = false;
        const results = await updateMarketplaces(home, command.target);
        if (results.length === 0) say('No plugin marketplaces are added.');
        for (const { name, report, error } of results) {
          if (!report) {
            failed = true;
            io.err(`mewcode: plugin marketplace update: ${terminalSafe(name)}: ${terminalSafe(error ?? 'failed')}\n`);
            continue;
          }
          for (const w of report.catalogue.warnings) warn(w);
          const { record, previousCommit } = report;
          const change = record.source.kind !== 'git' ? 'a folder, read in place' : previousCommit && previousCommit !== record.commit ? `${short(previousCommit)} → ${short(record.commit)}` : `already at ${short(record.commit)}`;
          say(`${name}: ${change}; ${report.catalogue.plugins.length} plugins. Installed plugins keep their copies: \`mewcode plugin install <plugin>@${name}\` takes the new one.`);
        }
        return failed ? 1 : 0;
      }
      case 'remove': {
        const { record, uninstalled } = removeMarketplace(home, command.target);
        say(`Removed the marketplace ${record.name}${uninstalled.length > 0 ? ` and uninstalled its plugins: ${uninstalled.join(', ')}` : ''}.`);
        return 0;
      }
    }
  }
  switch (command.action) {
    case 'install': {
      const report = await installPlugin(home, command.target).catch(async (error: Error) => {
        throw new Error(`${error.message}${await marketplaceHint(command.target, command.cwd, home)}`);
      });
      for (const w of report.warnings) warn(w);
      const { plugin } = report;
      const id = `${plugin.name}@${plugin.marketplace}`;
      const detail = [plugin.version ? `version ${plugin.version}` : '', plugin.commit ? `commit ${short(plugin.commit)}` : ''].filter(Boolean).join(', ');
      say(`${report.reinstalled ? 'Reinstalled' : 'Installed'} ${id}${detail ? ` (${detail})` : ''} into ${plugin.root}; ${plugin.enabled ? 'enabled' : 'disabled'}. ${NEXT_START}`);
      for (const note of report.notes) say(note);
      return 0;
    }
    case 'update': {
      // As `claude plugin update`: the marketplace is fetched first, then the plugin installed again from it.
      const before = findInstalled(readManifest(home), command.target);
      const id = `${before.name}@${before.marketplace}`;
      const [fetched] = await updateMarketplaces(home, before.marketplace);
      if (fetched?.error) throw new Error(`its marketplace ${before.marketplace} could not be updated: ${fetched.error}`);
      const report = await installPlugin(home, id);
      for (const w of report.warnings) warn(w);
      const after = report.plugin;
      const unchanged = after.version === before.version && after.commit === before.commit;
      say(unchanged ? `${id} is up to date (${described(after)}).` : `Updated ${id} from ${described(before)} to ${described(after)}. ${NEXT_START}`);
      return 0;
    }
    case 'uninstall': {
      const plugin = uninstallPlugin(home, command.target);
      say(`Uninstalled ${plugin.name}@${plugin.marketplace} (removed ${plugin.root}).`);
      return 0;
    }
    case 'enable':
    case 'disable': {
      const enable = command.action === 'enable';
      const { plugin, changed } = setPluginEnabled(home, command.target, enable);
      const id = `${plugin.name}@${plugin.marketplace}`;
      say(changed ? `${id} is now ${enable ? 'enabled' : 'disabled'}. ${NEXT_START}` : `${id} was already ${enable ? 'enabled' : 'disabled'}.`);
      // A settings file's enabledPlugins entry wins over this switch: say so rather than seem to work.
      const decided = readPluginSettings(command.cwd, home, undefined).enabled.get(id);
      if (decided && decided.enabled !== enable) warn(`${decided.file} sets enabledPlugins["${id}"] to ${decided.enabled}, which wins over this switch; change it there`);
      return 0;
    }
  }
}

/** `version 2.2.0 (commit abc1234)`, or what of it is known. */
function described(plugin: InstalledPlugin): string {
  const version = plugin.version ? `version ${plugin.version}` : 'no version';
  return plugin.commit ? `${version} (commit ${short(plugin.commit)})` : version;
}

/**
 * When `install` names a marketplace that is not added but a settings file names it
 * (`extraKnownMarketplaces`; the project's only when trusted): the command that adds it.
 */
async function marketplaceHint(spec: string, cwd: string, homeDir: string): Promise<string> {
  const marketplace = spec.includes('@') ? spec.slice(spec.lastIndexOf('@') + 1) : undefined;
  if (marketplace === undefined || readManifest(homeDir).marketplaces[marketplace]) return '';
  const trust = await createWorkspaceTrust({ projectRoot: cwd, homeDir, env: process.env });
  const wanted = readPluginSettings(cwd, homeDir, trust).marketplaces.get(marketplace);
  return wanted?.addSpec ? `. ${wanted.file} names it: mewcode plugin marketplace add ${wanted.addSpec}` : '';
}

/** The Claude Code plugin rows of `mewcode plugin list` (each marked `claude-plugin`). */
export async function claudePluginRows(cwd: string, homeDir: string, env: NodeJS.ProcessEnv): Promise<{ rows: string[]; warnings: string[] }> {
  readManifest(homeDir); // a broken manifest is an error naming it, not an empty list
  // As a run here would see it: the project's settings count if the project is trusted.
  const trust = await createWorkspaceTrust({ projectRoot: cwd, homeDir, env });
  const { states, notices, warnings } = enabledPlugins(cwd, homeDir, trust);
  // The plugins' own files are read only when there are some (the reader comes with the program's modules).
  const { loadBundle } = states.length > 0 ? await import('../config/claude-plugins/bundle/load-bundle.js') : { loadBundle: undefined };
  const rows = states.flatMap((s) => {
    const detail = [s.plugin.version ? `version ${s.plugin.version}` : '', s.plugin.commit ? `commit ${short(s.plugin.commit)}` : ''].filter(Boolean).join(', ');
    const why = s.decidedBy ? ` (by ${s.decidedBy.file})` : '';
    // What it contributes and what of it fails to load, read as a run reads it (one broken part never hides the others).
    const described = loadBundle && existsSync(s.plugin.root) ? describeClaudePlugin(loadBundle({ id: s.id, root: s.plugin.root, origin: 'installed' }, homeDir)) : undefined;
    const contributes = described?.contributes ?? 'its copy is missing';
    return [row(s.id, 'claude-plugin', `${s.enabled ? 'enabled' : 'disabled'}${why}`, ...(detail ? [detail] : []), contributes), ...(described?.problems ?? []).map((problem) => `  problem: ${problem}`)];
  });
  const untrusted = trust.skipped().filter((entry) => /: (?:enabledPlugins|extraKnownMarketplaces)$/.test(entry));
  const trustNote = untrusted.length > 0 ? [`not applied until you trust this project: ${untrusted.join(', ')}`] : [];
  return { rows, warnings: [...warnings, ...notices, ...trustNote] };
}

