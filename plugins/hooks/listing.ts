/**
 * The hook rules a run here would use, as text for the user: MewCode's rule files and the settings
 * files' Claude-style hooks — event, matcher or condition, action, the file and line, whether a
 * project file is trusted, and how many times each rule ran (ok / blocked / failed, average time)
 * according to `.mewcode/hooks.log`. Shared by `mewcode hooks` and the `/hooks` command.
 */
import { terminalSafe } from '../../config/terminal-safe.js';
import type { WorkspaceTrust } from '../../types/trust.js';
import { countRuns } from './hook-log.js';
import { loadHookRules, type HookSource } from './settings.js';
import { loadRuleFiles } from './rule-file.js';

export interface HookListing {
  /** One line per file and rule, newline-terminated; commands and paths come from files, so control characters are stripped. */
  text: string;
  /** Problems found while reading the files (each names its file). */
  warnings: string[];
}

/** `plugins`: the hooks of the Claude Code plugins of a running session (plugin-hooks.ts), listed after the settings files'. */
export async function describeHooks(projectRoot: string, homeDir: string, trust: WorkspaceTrust | undefined, plugins: readonly HookSource[] = []): Promise<HookListing> {
  const printable = (text: string): string => terminalSafe(text);
  const [loaded, files] = await Promise.all([loadHookRules(projectRoot, homeDir, trust), loadRuleFiles(projectRoot, homeDir, trust)]);
  const counts = countRuns(projectRoot);
  const runsOf = (name: string): string => {
    const count = counts.get(name);
    return count ? `${count.runs} runs: ${count.ok} ok, ${count.blocked} blocked, ${count.failed} failed, ${Math.round(count.totalMs / count.runs)} ms on average` : 'not run yet';
  };
  const out: string[] = [];
  // MewCode's rule files (they run first), then the settings files.
  for (const file of files.files) {
    if (!file.exists) continue;
    const state = file.trust === 'untrusted' ? 'untrusted: its rules do not run (trust the project: --trust-project)' : file.trust === 'trusted' ? 'trusted project file' : 'your own file';
    out.push(`${printable(file.file)} (${state})`);
    if (file.trust === 'untrusted') continue;
    if (file.rules.length === 0) out.push('  no rules');
    for (const rule of file.rules) {
      const action = rule.action.type === 'shell' ? rule.action.command : rule.action.type === 'prompt' ? `prompt: ${rule.action.text}` : rule.action.type === 'subagent' ? `sub-agent ${rule.action.agentName}: ${rule.action.prompt}` : `${rule.action.method} ${rule.action.url}`;
      const flags = [rule.if ? 'conditional' : '', rule.onlyOnce ? 'only once' : '', rule.async ? 'async' : '', rule.failClosed ? 'fail closed' : '', rule.sandboxed && rule.action.type === 'shell' ? 'sandboxed' : ''].filter(Boolean).join(', ');
      out.push(`  ${printable(rule.name)} on ${rule.event}: ${printable(action)}${flags ? ` (${flags})` : ''}`, `    ${printable(rule.where)} — ${runsOf(rule.name)}`);
    }
  }
  for (const source of [...loaded.sources, ...plugins]) {
    if (!source.exists) continue;
    const state = source.trust === 'untrusted' ? 'untrusted: its hooks do not run (trust the project: --trust-project)' : source.trust === 'trusted' ? 'trusted project file' : 'your own file';
    const plugin = plugins.includes(source) ? source.rules[0]?.plugin?.id : undefined;
    out.push(`${printable(source.file)} (${plugins.includes(source) ? `Claude Code plugin${plugin ? ` ${printable(plugin)}` : ''}` : `${source.scope}, ${state}`})`);
    if (source.trust === 'untrusted') continue;
    if (source.rules.length === 0) out.push('  no hooks');
    for (const rule of source.rules) {
      const flags = [rule.handler.async ? 'async' : '', rule.sandboxed ? 'sandboxed' : ''].filter(Boolean).join(', ');
      const action = rule.handler.type === 'http' ? `POST ${rule.handler.url}` : rule.handler.type === 'agent' ? `agent ${rule.handler.agent ?? 'explore'}: ${rule.handler.prompt}` : [rule.handler.command, ...(rule.handler.args ?? []).map((arg) => JSON.stringify(arg))].join(' ');
      const condition = rule.if ? ` if ${printable(rule.if)}` : '';
      out.push(`  ${rule.event}${rule.matcher ? ` [${printable(rule.matcher)}]` : ''}${condition}: ${printable(action)}${flags ? ` (${flags})` : ''}`, `    ${printable(rule.name)} — ${runsOf(rule.name)}`);
    }
  }
  if (!loaded.sources.some((source) => source.exists) && !files.files.some((file) => file.exists) && plugins.length === 0) {
    out.push('No hooks configured (hooks: in ~/.mewcode/settings.yaml, .mewcode/settings.yaml or .mewcode/settings.local.yaml in Claude Code\'s settings.json shape, or in Claude Code\'s ~/.claude/settings.json, .claude/settings.json or .claude/settings.local.json, or rules in .mewcode/hooks.yaml and ~/.mewcode/hooks.yaml).');
  }
  return { text: out.map((line) => `${line}\n`).join(''), warnings: [...files.warnings, ...loaded.warnings] };
}
