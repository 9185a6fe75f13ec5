/**
 * `mewcode hooks`: the hook rules a run here would use, read without booting a kernel — event,
 * matcher, command, the file and line, whether a project file's hooks are trusted, and how many
 * times each rule ran (ok / blocked / failed, average time) according to `.mewcode/hooks.log`.
 */
import os from 'node:os';
import path from 'node:path';
import { createWorkspaceTrust } from '../config/trust.js';
import { countRuns, HOOK_LOG } from '../plugins/hooks/hook-log.js';
import { loadHookRules } from '../plugins/hooks/settings.js';
import type { DoctorOptions } from './cli-args.js';

/** Commands and paths come from files: control characters never reach the terminal. */
const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '?');

export async function listHooks(options: DoctorOptions): Promise<number> {
  const homeDir = os.homedir();
  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env: process.env, flag: options.trustProject });
  const loaded = await loadHookRules(options.cwd, homeDir, trust);
  for (const warning of loaded.warnings) process.stderr.write(`mewcode: ${warning}\n`);
  const counts = countRuns(path.join(options.cwd, HOOK_LOG));
  for (const source of loaded.sources) {
    if (!source.exists) continue;
    const state = source.trust === 'untrusted' ? 'untrusted: its hooks do not run (trust the project: --trust-project)' : source.trust === 'trusted' ? 'trusted project file' : 'your own file';
    process.stdout.write(`${printable(source.file)} (${source.scope}, ${state})\n`);
    if (source.trust === 'untrusted') continue;
    if (source.rules.length === 0) process.stdout.write('  no hooks\n');
    for (const rule of source.rules) {
      const count = counts.get(rule.name);
      const runs = count ? `${count.runs} runs: ${count.ok} ok, ${count.blocked} blocked, ${count.failed} failed, ${Math.round(count.totalMs / count.runs)} ms on average` : 'not run yet';
      const flags = [rule.handler.async ? 'async' : '', rule.sandboxed ? 'sandboxed' : ''].filter(Boolean).join(', ');
      process.stdout.write(`  ${rule.event}${rule.matcher ? ` [${printable(rule.matcher)}]` : ''}: ${printable(rule.handler.command)}${flags ? ` (${flags})` : ''}\n    ${printable(rule.name)} — ${runs}\n`);
    }
  }
  if (loaded.rules.length === 0 && !loaded.sources.some((source) => source.trust === 'untrusted')) {
    process.stdout.write('No hooks configured (hooks: in ~/.mewcode/settings.yaml, .mewcode/settings.yaml or .mewcode/settings.local.yaml, in Claude Code\'s settings.json shape).\n');
  }
  return 0;
}
