/**
 * The hooks of the Claude Code plugins of this run (TOKENS.ClaudePluginBundles): each plugin's
 * `hooks/hooks.json` (or plugin.json's `hooks`) is Claude Code's settings `hooks` object, read by
 * the same parser as the settings files, as the user's own hooks (the user chose the plugin: no
 * workspace trust; on the host unless a handler says `sandbox: true` or the project is untrusted,
 * as for the user's own: containment.ts).
 * Their commands get CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA in their environment. A command
 * whose script is missing from the plugin is not loaded (the claude-plugins plugin named it).
 */
import { existsSync } from 'node:fs';
import type { LocatedNode, SourcePos } from '../../config/located.js';
import { missingPluginScript, type ClaudePluginBundles, type ClaudePluginPart } from '../../types/claude-plugins.js';
import type { KernelApi } from '../../types/plugin.js';
import { TOKENS } from '../../types/tokens.js';
import { parseHooks, type HookRule, type HookSource } from './settings.js';

/** The plain value as located nodes, each at its place in the plugin's file. */
function located(value: unknown, part: ClaudePluginPart, path: (string | number)[]): LocatedNode {
  const pos: SourcePos = { file: part.file, ...(part.locate(path) ?? { line: 1, col: 1 }) };
  if (Array.isArray(value)) return { kind: 'seq', pos, items: value.map((item, index) => located(item, part, [...path, index])) };
  if (typeof value === 'object' && value !== null) {
    return { kind: 'map', pos, entries: new Map(Object.entries(value).map(([key, item]) => [key, located(item, part, [...path, key])])) };
  }
  return { kind: 'scalar', pos, value };
}

function bundlesOf(kernel: KernelApi) {
  return kernel.container.isBound(TOKENS.ClaudePluginBundles) ? kernel.container.get<ClaudePluginBundles>(TOKENS.ClaudePluginBundles).list() : [];
}

export function loadPluginHooks(kernel: KernelApi): { rules: HookRule[]; sources: HookSource[]; warnings: string[] } {
  const warnings: string[] = [];
  const rules: HookRule[] = [];
  const sources: HookSource[] = [];
  for (const bundle of bundlesOf(kernel)) {
    if (!bundle.loaded) continue;
    for (const part of bundle.hooks) {
      const source: HookSource = { scope: 'user', file: part.file, exists: true, trust: 'personal', rules: [] };
      sources.push(source);
      for (const rule of parseHooks(located(part.value, part, []), 'user', part.file, warnings, false)) {
        if (rule.handler.type === 'command' && [rule.handler.command, ...(rule.handler.args ?? [])].some((word) => missingPluginScript(word, bundle.root, existsSync) !== undefined)) continue;
        const withPlugin: HookRule = { ...rule, plugin: { id: bundle.id, env: bundle.variables } };
        source.rules.push(withPlugin);
        rules.push(withPlugin);
      }
    }
  }
  return { rules, sources, warnings };
}
