/** Skill folders and a kernel with the skills plugin, for the skills tests. */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import skills, { SKILLS_RUNTIME, type SkillsRuntime } from '../../../plugins/skills/index.js';
import type { ResolvedConfig } from '../../../types/config.js';
import { definePlugin, type CliOptions, type MewcodePlugin } from '../../../types/plugin.js';
import type { SubagentRequest, SubagentResult, SubagentRunner } from '../../../types/subagents.js';
import { TOKENS } from '../../../types/tokens.js';
import type { WorkspaceTrust } from '../../../types/trust.js';
import { memoryEnv, memoryModel, type MemoryModel, type Step } from '../../support/memory-provider.js';
import { temp } from '../../support/temp-dirs.js';

export function writeSkill(root: string, folder: string, frontmatter: Record<string, string>, body: string): string {
  const dir = path.join(root, folder);
  mkdirSync(dir, { recursive: true });
  const yaml = Object.entries(frontmatter).map(([key, value]) => `${key}: ${value}`).join('\n');
  writeFileSync(path.join(dir, 'SKILL.md'), `---\n${yaml}\n---\n${body}`);
  return dir;
}

/** Only the `skills` section, as if written in a configuration file. */
export function skillsConfig(section: unknown): ResolvedConfig {
  return { layers: [], warnings: [], section: (key) => (key === 'skills' ? section : undefined), locate: () => undefined };
}

export interface SkillsKernel {
  kernel: Kernel;
  model: MemoryModel;
  reporter: MemoryReporter;
  runtime: SkillsRuntime;
  home: string;
  project: string;
  /** `<project>/.mewcode/skills` */
  projectSkills: string;
}

export async function bootSkills(steps: Step[], options: { plugins?: MewcodePlugin[]; config?: ResolvedConfig; home?: string; project?: string; cli?: CliOptions; trust?: WorkspaceTrust } = {}): Promise<SkillsKernel> {
  const home = options.home ?? temp('skills-home-');
  const project = options.project ?? temp('skills-project-');
  const model = memoryModel(steps);
  const reporter = new MemoryReporter();
  const kernel = await Kernel.create({
    plugins: [model.plugin, permissionMode, skills, ...(options.plugins ?? [])],
    projectRoot: project,
    homeDir: home,
    env: memoryEnv,
    reporter,
    config: options.config ?? skillsConfig({ watch: false }),
    ...(options.cli ? { cli: options.cli } : {}),
    ...(options.trust ? { trust: options.trust } : {}),
  });
  return { kernel, model, reporter, runtime: kernel.container.get<SkillsRuntime>(SKILLS_RUNTIME), home, project, projectSkills: path.join(project, '.mewcode', 'skills') };
}

/**
 * A sub-agent runner that records each request and answers with fixed text, or throws the given
 * error (the contract, not the subagents plugin).
 */
export function recordingRunner(answer: string | Error): { plugin: MewcodePlugin; requests: SubagentRequest[] } {
  const requests: SubagentRequest[] = [];
  const runner: SubagentRunner = {
    roles: () => [],
    async run(request): Promise<SubagentResult> {
      requests.push(request);
      if (answer instanceof Error) throw answer;
      return { agentId: 'sub-1', text: answer, endReason: 'completed', isError: false, usage: { input: 1, output: 1, cacheWrite: 0, cacheRead: 0 }, iterations: 1 };
    },
  };
  return { requests, plugin: definePlugin({ name: 'test-runner', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.SubagentRunner).toConstantValue(runner)) }) };
}

/** Poll until `done()` holds or `ms` pass (file watchers report asynchronously). */
export async function waitUntil(done: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}
