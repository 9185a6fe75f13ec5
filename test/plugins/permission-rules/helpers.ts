/** Real kernels with the rules plugin, small fake tools, and temp project/home directories. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import type { PermissionMode, PermissionVerdict } from '../../../types/permissions.js';
import { reporterOutput } from '../../../kernel/output-route.js';
import type { CliOptions, MewcodePlugin, UserOutput } from '../../../types/plugin.js';
import { toolCategory, type Tool, type ToolInput } from '../../../types/tools.js';
import { bootKernel } from '../../support/boot.js';
import type { Step } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import { createWorkspaceTrust } from '../../../config/trust.js';
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../../types/plugin.js';
import { TOKENS } from '../../../types/tokens.js';
import type { WorkspaceTrust } from '../../../types/trust.js';
import { rawHooks } from './raw-hooks.js';

export interface Dirs {
  root: string;
  home: string;
  cleanup(): void;
}

export function tempDirs(): Dirs {
  const base = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-perm-')));
  const root = path.join(base, 'project');
  const home = path.join(base, 'home');
  mkdirSync(root, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { root, home, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

export type Layer = 'user' | 'project' | 'local';

export function settingsPath(dirs: Dirs, layer: Layer): string {
  if (layer === 'user') return path.join(dirs.home, '.mewcode', 'settings.yaml');
  return path.join(dirs.root, '.mewcode', layer === 'local' ? 'settings.local.yaml' : 'settings.yaml');
}

export function writeSettings(dirs: Dirs, layer: Layer, content: string | { allow?: string[]; ask?: string[]; deny?: string[] }): string {
  const file = settingsPath(dirs, layer);
  mkdirSync(path.dirname(file), { recursive: true });
  const text =
    typeof content === 'string'
      ? content
      : `permissions:\n${(['allow', 'ask', 'deny'] as const)
          .filter((k) => content[k])
          .map((k) => `  ${k}:\n${content[k]!.map((r) => `    - ${JSON.stringify(r)}\n`).join('')}`)
          .join('')}`;
  writeFileSync(file, text);
  return file;
}

export const executed: string[] = [];

function fakeTool(name: string, kind: 'command' | 'path' | 'none', category: 'read' | 'write' | 'exec'): Tool {
  return {
    name,
    description: `fake ${name}`,
    inputSchema: { type: 'object' },
    readOnly: category === 'read',
    category,
    permissionTarget: (input: ToolInput) =>
      kind === 'command'
        ? { kind: 'command', command: String(input.command) }
        : kind === 'path'
          ? { kind: 'path', path: String(input.file_path ?? input.path), ...(typeof input.real === 'string' ? { real: input.real } : {}) } // `real`: where the tool found the path led
          : { kind: 'none' },
    async execute(input: ToolInput) {
      executed.push(`${name}:${JSON.stringify(input)}`);
      return { content: `${name} ok` };
    },
  };
}

export const fakeTools = (): MewcodePlugin =>
  toolsPlugin([
    fakeTool('bash', 'command', 'exec'),
    fakeTool('read_file', 'path', 'read'),
    fakeTool('write_file', 'path', 'write'),
    fakeTool('edit_file', 'path', 'write'),
    fakeTool('glob', 'path', 'read'),
    fakeTool('mcp__fs__read', 'none', 'exec'),
    fakeTool('mcp__fs__write', 'none', 'exec'),
    fakeTool('mcp__git__log', 'none', 'exec'),
  ], 'fake-tools');

export function cliOptions(overrides: Partial<CliOptions> = {}): CliOptions {
  return { outputFormat: 'text', permissionMode: 'default', permissionModeGiven: true, debugBoot: false, cwd: '/', allowedTools: [], disallowedTools: [], ...overrides };
}

export interface BootRulesOptions {
  cli?: Partial<CliOptions>;
  plugins?: MewcodePlugin[];
  steps?: Step[];
  /**
   * The workspace trust service bound: by default one that trusts the project (as
   * --trust-project does: the tests of the rules' meaning write project rules); `false` binds
   * none (the project is untrusted, fail closed).
   */
  trust?: WorkspaceTrust | false;
  /** The active user interface's answer to approvals (as the user would answer); its messages still go to the reporter. */
  approve?: UserOutput['approve'];
}

export const trustPlugin = (trust: WorkspaceTrust): MewcodePlugin =>
  definePlugin({ name: 'test-trust', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.WorkspaceTrust).toConstantValue(trust)) });

export async function bootRules(dirs: Dirs, options: BootRulesOptions = {}): Promise<{ kernel: Kernel; reporter: MemoryReporter }> {
  const trust = options.trust ?? (await createWorkspaceTrust({ projectRoot: dirs.root, homeDir: dirs.home, flag: true }));
  const trustPlugins = trust === false ? [] : [trustPlugin(trust)];
  const { kernel, reporter } = await bootKernel(options.steps ?? [], [fakeTools(), createPermissionRulesPlugin(), ...trustPlugins, ...(options.plugins ?? [])], {
    projectRoot: dirs.root,
    homeDir: dirs.home,
    ...(options.cli ? { cli: cliOptions(options.cli) } : {}),
  });
  if (options.approve) kernel.output.attach({ ...reporterOutput(reporter), approve: options.approve });
  return { kernel, reporter };
}

/** The whole checkPermission chain for one call, as the gate builds the request. */
export async function decide(kernel: Kernel, toolName: string, input: ToolInput, mode: PermissionMode = 'default'): Promise<PermissionVerdict | undefined> {
  const tool = kernel.tools.get(toolName);
  return rawHooks(kernel).checkPermission.promise({
    toolName,
    tool,
    input,
    category: toolCategory(tool),
    target: (await tool?.permissionTarget?.(input)) ?? { kind: 'none' },
    mode,
    sessionId: kernel.session.sessionId,
    projectRoot: kernel.session.projectRoot,
  });
}

export const bash = (kernel: Kernel, command: string, mode?: PermissionMode) => decide(kernel, 'bash', { command }, mode);
export const read = (kernel: Kernel, file: string, mode?: PermissionMode) => decide(kernel, 'read_file', { file_path: file }, mode);
export const write = (kernel: Kernel, file: string, mode?: PermissionMode) => decide(kernel, 'write_file', { file_path: file }, mode);
export const edit = (kernel: Kernel, file: string, mode?: PermissionMode) => decide(kernel, 'edit_file', { file_path: file }, mode);

/** The decision, or "mode" when the rules had nothing to say and the mode layer answered. */
export async function outcome(verdict: Promise<PermissionVerdict | undefined>): Promise<string> {
  const v = await verdict;
  if (!v) return 'none';
  return v.layer.startsWith('permission-rules') ? v.decision : `mode:${v.decision}`;
}

export function warnings(reporter: MemoryReporter): string[] {
  return reporter.warnings;
}
