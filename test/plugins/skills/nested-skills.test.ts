/**
 * Nested skills folders of a monorepo (`packages/api/.claude/skills`), as Claude Code discovers
 * them: found when a file tool first touches a file under that subfolder, announced with that
 * tool's result (never in the stable prompt, whose prefix stays byte-identical), then loadable by
 * load_skill; the project root's skill of the same name wins, with a warning naming both files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import outputLimits from '../../../plugins/output-limits/index.js';
import toolReadFile from '../../../plugins/tool-read-file/index.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootSkills, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

const toolResults = (messages: readonly Message[]): { content: string; isError?: boolean }[] =>
  messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);

function monorepo(): { project: string; api: string } {
  const project = temp('skills-mono-');
  const api = path.join(project, 'packages', 'api');
  mkdirSync(api, { recursive: true });
  writeFileSync(path.join(api, 'index.js'), 'x\n');
  mkdirSync(path.join(project, 'packages', 'web'), { recursive: true });
  writeFileSync(path.join(project, 'packages', 'web', 'index.js'), 'y\n');
  return { project, api };
}

test.each([['.claude/skills'], ['.agents/skills'], ['.mewcode/skills']])('a skill in packages/api/%s: announced with the first read there, then load_skill loads it; the stable prompt never changes', async (rootName) => {
  const { project, api } = monorepo();
  writeSkill(path.join(api, rootName), 'apiskill', { name: 'apiskill', description: 'APISKILL-DESC' }, 'API BODY\n');
  const booted = await bootSkills(
    [
      useTools([call('read_file', { file_path: 'packages/web/index.js' })]),
      useTools([call('read_file', { file_path: 'packages/api/index.js' })]),
      useTools([call('load_skill', { name: 'apiskill' })]),
      useTools([call('read_file', { file_path: 'packages/api/index.js' })]),
      say('done'),
    ],
    { project, plugins: [outputLimits, toolReadFile] },
  );
  await booted.kernel.pluginsReady();
  expect(booted.runtime.store.current.get('apiskill')).toBeUndefined();
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  const requests = booted.model.requests;
  expect(requests[0]!.system.stable).not.toContain('APISKILL-DESC');
  // Another subfolder's read brings nothing.
  expect(toolResults(requests[1]!.messages).at(-1)!.content).not.toContain('apiskill');
  const announced = toolResults(requests[2]!.messages).at(-1)!.content;
  expect(announced).toContain('- apiskill: APISKILL-DESC');
  expect(announced).toContain(path.join(api, rootName));
  const loaded = toolResults(requests[3]!.messages).at(-1)!;
  expect(loaded.isError ?? false).toBe(false);
  expect(requests[4]!.system.environment).toContain('API BODY');
  // Said once per session.
  expect(toolResults(requests[4]!.messages).at(-1)!.content).not.toContain('APISKILL-DESC');
  for (const request of requests) expect(request.system.stable).toBe(requests[0]!.system.stable);
});

test("the project root's skill of the same name wins over a nested one, with a warning naming both files", async () => {
  const { project, api } = monorepo();
  const ours = writeSkill(path.join(project, '.claude', 'skills'), 'review', { name: 'review', description: 'ROOT-REVIEW' }, 'R\n');
  const nested = writeSkill(path.join(api, '.claude', 'skills'), 'review', { name: 'review', description: 'API-REVIEW' }, 'A\n');
  const booted = await bootSkills([useTools([call('read_file', { file_path: 'packages/api/index.js' })]), say('done')], { project, plugins: [outputLimits, toolReadFile] });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  expect(booted.runtime.store.current.get('review')?.file).toBe(path.join(ours, 'SKILL.md'));
  const warnings = booted.reporter.warnings.join('\n');
  expect(warnings).toContain(path.join(nested, 'SKILL.md'));
  expect(warnings).toContain(path.join(ours, 'SKILL.md'));
  expect(toolResults(booted.model.requests[1]!.messages).at(-1)!.content).not.toContain('API-REVIEW');
});

test('a nested skill that carries scripts is skipped in an untrusted project, and its !`…` lines never run', async () => {
  const { project, api } = monorepo();
  const dir = writeSkill(path.join(api, '.claude', 'skills'), 'scripted', { name: 'scripted', description: 'S' }, 'Run scripts/go.sh\n');
  mkdirSync(path.join(dir, 'scripts'));
  writeFileSync(path.join(dir, 'scripts', 'go.sh'), 'echo hi\n');
  writeSkill(path.join(api, '.claude', 'skills'), 'status', { name: 'status', description: 'S' }, 'Changes:\n!`git status --short`\n');
  const booted = await bootSkills([useTools([call('read_file', { file_path: 'packages/api/index.js' })]), useTools([call('load_skill', { name: 'status' })]), say('done')], { project, plugins: [outputLimits, toolReadFile] });
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  expect(booted.runtime.store.current.get('scripted')).toBeUndefined();
  const [result] = toolResults(booted.model.requests[2]!.messages).slice(-1);
  expect(result).toMatchObject({ isError: true });
  expect(result!.content).toContain(path.join(api, '.claude', 'skills', 'status', 'SKILL.md'));
});
