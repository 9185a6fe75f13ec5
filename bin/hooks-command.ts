/**
 * `mewcode hooks`: the hook rules a run here would use, read without booting a kernel — MewCode's
 * rule files and the settings files' Claude-style hooks: event, matcher or condition, action, the
 * file and line, whether a project file is trusted, and how many times each rule ran (ok /
 * blocked / failed, average time) according to `.mewcode/hooks.log`.
 */
import os from 'node:os';
import { terminalSafe } from '../config/terminal-safe.js';
import path from 'node:path';
import { createWorkspaceTrust } from '../config/trust.js';
import { countRuns, HOOK_LOG } from '../plugins/hooks/hook-log.js';
import { loadHookRules } from '../plugins/hooks/settings.js';
import { loadRuleFiles } from '../plugins/hooks/rule-file.js';
import type { DoctorOptions } from './cli-args.js';

/** Commands and paths come from files: control characters never reach the terminal. */
const printable = (text: string): string => terminalSafe(text);

export async function listHooks(options: DoctorOptions): Promise<number> {
  const homeDir = os.homedir();
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: process.env, flag: options.trustProject });
  const [loaded, files] = await Promise.all([loadHookRules(options.cwd, homeDir, trust), loadRuleFiles(options.cwd, homeDir, trust)]);
  for (const warning of [...files.warnings, ...loaded.warnings]) process.stderr.write(`mewcode: ${warning}\n`);
  const counts = countRuns(path.join(options.cwd, HOOK_LOG));
  const runsOf = (name: string): string => {
    const count = counts.get(name);
    return count ? `${count.runs} runs: ${count.ok} ok, ${count.blocked} blocked, ${count.failed} failed, ${Math.round(count.totalMs / count.runs)} ms on average` : 'not run yet';
  };
  // MewCode's rule files (they run first), then the settings files.
  for (const file of files.files) {
    if (!file.exists) continue;
    const state = file.trust === 'untrusted' ? 'untrusted: its rules do not run (trust the project: --trust-project)' : file.trust === 'trusted' ? 'trusted project file' : 'your own file';
    process.stdout.write(`${printable(file.file)} (${state})\n`);
    if (file.trust === 'untrusted') continue;
    if (file.rules.length === 0) process.stdout.write('  no rules\n');
    for (const rule of file.rules) {
      const action = rule.action.type === 'shell' ? rule.action.command : rule.action.type === 'prompt' ? `prompt: ${rule.action.text}` : rule.action.type === 'subagent' ? `sub-agent ${rule.action.agentName}: ${rule.action.prompt}` : `${rule.action.method} ${rule.action.url}`;
      const flags = [rule.if ? 'conditional' : '', rule.onlyOnce ? 'only once' : '', rule.async ? 'async' : '', rule.failClosed ? 'fail closed' : '', rule.sandboxed && rule.action.type === 'shell' ? 'sandboxed' : ''].filter(Boolean).join(', ');
      process.stdout.write(`  ${printable(rule.name)} on ${rule.event}: ${printable(action)}${flags ? ` (${flags})` : ''}\n    ${printable(rule.where)} — ${runsOf(rule.name)}\n`);
    }
  }
  for (const source of loaded.sources) {
    if (!source.exists) continue;
    const state = source.trust === 'untrusted' ? 'untrusted: its hooks do not run (trust the project: --trust-project)' : source.trust === 'trusted' ? 'trusted project file' : 'your own file';
    process.stdout.write(`${printable(source.file)} (${source.scope}, ${state})\n`);
    if (source.trust === 'untrusted') continue;
    if (source.rules.length === 0) process.stdout.write('  no hooks\n');
    for (const rule of source.rules) {
      const runs = runsOf(rule.name);
      const flags = [rule.handler.async ? 'async' : '', rule.sandboxed ? 'sandboxed' : ''].filter(Boolean).join(', ');
      process.stdout.write(`  ${rule.event}${rule.matcher ? ` [${printable(rule.matcher)}]` : ''}: ${printable(rule.handler.type === 'http' ? `POST ${rule.handler.url}` : rule.handler.type === 'agent' ? `agent ${rule.handler.agent ?? 'explore'}: ${rule.handler.prompt}` : rule.handler.command)}${flags ? ` (${flags})` : ''}\n    ${printable(rule.name)} — ${runs}\n`);
    }
  }
  if (!loaded.sources.some((source) => source.exists) && !files.files.some((file) => file.exists)) {
    process.stdout.write('No hooks configured (hooks: in ~/.mewcode/settings.yaml, .mewcode/settings.yaml or .mewcode/settings.local.yaml in Claude Code\'s settings.json shape, or rules in .mewcode/hooks.yaml and ~/.mewcode/hooks.yaml).\n');
  }
  return 0;
}
