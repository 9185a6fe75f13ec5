/**
 * `mewcode doctor`: checks this machine and project and prints one line per finding,
 * `ok|warn|fail  <check>  <message> — <hint>`, then a count. Exit 0 without a fail, 1 with one.
 *
 * Loaded only for the subcommand (bin/cli.ts, bin/main.ts import it dynamically), so a normal
 * start never pays for it. Checks, in order: Node.js, managed settings, configuration files,
 * settings files, workspace trust, the provider a run would use and its API key (never printed), the proxy, then
 * each plugin's own checks in plugin order (the OS sandbox, ripgrep, the audit log…,
 * types/cli.ts), and the plugins (a real boot of the build's plugin set, without a session or a
 * model call). Nothing is written: not the trust store, not the audit log.
 */
import os from 'node:os';
import type { MewcodePlugin } from '../types/plugin.js';
import type { DoctorOptions } from './cli-args.js';
import { checkConfig, checkNode, checkSettingsFiles, checkTrust } from './doctor-checks.js';
import { checkProxy } from './doctor-proxy.js';
import { formatLine, summaryLine, type CheckLine } from './doctor-report.js';
// Static imports of what a run loads anyway: a dynamic import of a start-up module would make it
// a chunk of its own on every run's path (see BENCHMARKS.md, the start-up path's chunk count).
import { KERNEL_VERSION } from '../kernel/version.js';
import { createWorkspaceTrust, loadConfig } from '../config/index.js';
import { defaultPlugins } from '../plugins/default-set.js';
import { kernelChecks } from './doctor-kernel.js';
import { checkManaged } from './doctor-managed.js';
import { pluginDoctorChecks } from './doctor-plugin-checks.js';
import { terminal } from '../config/terminal-safe.js';

export interface DoctorDeps {
  /** The build's plugins (default: the default set, imported only now). */
  plugins?: readonly MewcodePlugin[];
  env?: NodeJS.ProcessEnv;
  homeDir?: string;
  out?: (text: string) => void;
  /** Tests: another Node.js version. */
  nodeVersion?: string;
}

export async function runDoctor(options: DoctorOptions, deps: DoctorDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  const homeDir = deps.homeDir ?? os.homedir();
  const out = deps.out ?? terminal.out;
  const lines = await collectChecks(options, { env, homeDir, ...(deps.plugins ? { plugins: deps.plugins } : {}), ...(deps.nodeVersion ? { nodeVersion: deps.nodeVersion } : {}) });
  const style = { cwd: options.cwd, homeDir };
  out(`mewcode doctor ${KERNEL_VERSION}: ${options.cwd}\n`);
  out(lines.map((line) => `${formatLine(line, style)}\n`).join(''));
  out(`${summaryLine(lines)}\n`);
  return lines.some((line) => line.status === 'fail') ? 1 : 0;
}

export async function collectChecks(
  options: DoctorOptions,
  deps: { env: NodeJS.ProcessEnv; homeDir: string; plugins?: readonly MewcodePlugin[]; nodeVersion?: string },
): Promise<CheckLine[]> {
  const { env, homeDir } = deps;
  const lines: CheckLine[] = [...checkNode(deps.nodeVersion)];

  const trust = await createWorkspaceTrust({ projectRoot: options.cwd, homeDir, env, flag: options.trustProject });
  const config = await loadConfig({ cwd: options.cwd, homeDir, trust });
  const managed = await checkManaged(env);
  lines.push(...managed.lines);
  lines.push(...checkConfig(config, new Set(trust.warnings))); // the trust check shows those
  const settings = checkSettingsFiles(options.cwd, homeDir);
  lines.push(...settings.lines);
  lines.push(...checkTrust(trust));

  const plugins = deps.plugins ?? defaultPlugins;
  const kernel = await kernelChecks({ options, homeDir, env, plugins, config, trust, shown: new Set([...config.warnings, ...trust.warnings, ...settings.warnings]) }, (booted) =>
    pluginDoctorChecks({ cwd: options.cwd, homeDir, env, config, trust, kernel: booted }, plugins),
  );
  lines.push(...kernel.provider);
  lines.push(...checkProxy(env, kernel.endpoint));
  lines.push(...kernel.more);
  lines.push(...kernel.plugins);
  return lines;
}
