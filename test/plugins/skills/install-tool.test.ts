/**
 * install_skill in a real kernel: it needs approval (Exec) — refused when nobody can approve —
 * and once it runs, the catalog is reloaded so `/<name>` and load_skill work at once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Kernel } from '../../../kernel/kernel.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import type { ApprovalOutcome, ApprovalRequest } from '../../../types/permissions.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs } from '../../support/temp-dirs.js';
import { startFakeGithub, type FakeGithub } from './fake-github.js';
import { bootSkills } from './helpers.js';
import { createPermissionRulesPlugin } from '../../../plugins/permission-rules/index.js';
import { cliOptions } from '../permission-rules/helpers.js';

let github: FakeGithub;
const saved = { api: process.env.MEWCODE_SKILLS_GITHUB_API, raw: process.env.MEWCODE_SKILLS_RAW_BASE };
beforeAll(async () => {
  github = await startFakeGithub();
  process.env.MEWCODE_SKILLS_GITHUB_API = github.env.MEWCODE_SKILLS_GITHUB_API;
  process.env.MEWCODE_SKILLS_RAW_BASE = github.env.MEWCODE_SKILLS_RAW_BASE;
  github.repos.set('acme/skills', { 'skills/release-notes/SKILL.md': '---\nname: release-notes\ndescription: Draft release notes.\n---\nDraft notes for $ARGUMENTS.\n' });
});
afterAll(async () => {
  for (const [key, value] of [['MEWCODE_SKILLS_GITHUB_API', saved.api], ['MEWCODE_SKILLS_RAW_BASE', saved.raw]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await github.close();
});
afterEach(() => removeTempDirs());

const results = (messages: readonly Message[]) => messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results);
const URL_ = 'https://github.com/acme/skills/tree/main/skills/release-notes';

test('install_skill is an Exec tool: without anyone to approve it, it is refused and nothing is written', async () => {
  const booted = await bootSkills([useTools([call('install_skill', { url: URL_ })]), say('ok')]);
  const tool = booted.kernel.tools.list().find((t) => t.name === 'install_skill')!;
  expect(tool).toMatchObject({ readOnly: false, category: 'exec' });
  expect(tool.system).toBeUndefined();
  await collect(booted.kernel.run({ prompt: 'install it', mode: 'default' }));
  const [refused] = results(booted.model.requests[1]!.messages);
  expect(refused).toMatchObject({ isError: true, content: expect.stringContaining('Permission required: install_skill needs approval') });
  expect(existsSync(path.join(booted.home, '.mewcode', 'skills', 'release-notes'))).toBe(false);
});

test('it asks in bypassPermissions mode too (what it installs is loaded by every later session): refused when nobody can approve, nothing written', async () => {
  for (const scope of ['user', 'project'] as const) {
    const booted = await bootSkills([useTools([call('install_skill', { url: URL_, scope })]), say('ok')]);
    await collect(booted.kernel.run({ prompt: 'install it', mode: 'bypassPermissions' }));
    const [refused] = results(booted.model.requests[1]!.messages);
    expect(refused).toMatchObject({ isError: true, content: expect.stringContaining('install_skill asks in every permission mode') });
    expect(existsSync(path.join(booted.home, '.mewcode', 'skills', 'release-notes'))).toBe(false);
    expect(existsSync(path.join(booted.projectSkills, 'release-notes'))).toBe(false);
  }
});

/** The user's answer to every question (as the terminal UI gives it), and the questions asked. */
function userAnswers(kernel: Kernel, choice: ApprovalOutcome['choice']): ApprovalRequest[] {
  const asked: ApprovalRequest[] = [];
  kernel.activateUi({ name: 'test-ui', handles: () => true, run: async () => 0, output: { notify: () => undefined, approve: async (request) => (asked.push(request), { choice, answeredBy: 'the user' }) } });
  return asked;
}

test('approved by the user (bypass mode), it installs, the catalog reloads, and the skill loads at once as a tool call and a command', async () => {
  const booted = await bootSkills([
    useTools([call('install_skill', { url: URL_ })]),
    useTools([call('load_skill', { name: 'release-notes', arguments: 'v2.0' })]),
    say('done'),
  ]);
  expect(booted.kernel.commands().map((c) => c.name)).toEqual(['skills']);
  const asked = userAnswers(booted.kernel, 'allow_once');
  await collect(booted.kernel.run({ prompt: 'install it', mode: 'bypassPermissions' }));
  expect(asked.map((request) => [request.toolName, request.verdict.layer, request.pluginsMayAllow])).toEqual([['install_skill', 'skills', false]]);
  const [installed] = results(booted.model.requests[1]!.messages);
  expect(installed!.isError).toBeFalsy();
  expect(installed!.content).toContain(`Installed the skill "release-notes" (1 file, `);
  expect(installed!.content).toContain('It is available now as /release-notes and through load_skill. Draft release notes.');
  expect(booted.model.requests[2]!.system.environment).toContain('Draft notes for v2.0.');
  expect(booted.kernel.commands().map((c) => c.name)).toEqual(['skills', 'release-notes']);
});

test('a project install of a skill with scripts in an untrusted project says why it is not loaded', async () => {
  github.repos.set('acme/scripted', { 's/SKILL.md': '---\nname: scripted\ndescription: d\n---\nb\n', 's/run.sh': 'echo hi\n' });
  const booted = await bootSkills([useTools([call('install_skill', { url: 'https://github.com/acme/scripted/tree/main/s', scope: 'project' })]), say('ok')]);
  userAnswers(booted.kernel, 'allow_once');
  await collect(booted.kernel.run({ prompt: 'install', mode: 'bypassPermissions' }));
  const [result] = results(booted.model.requests[1]!.messages);
  expect(result!.content).toContain('It is not loaded: the project\'s skill "scripted" carries scripts (run.sh); it loads once you trust the project (--trust-project).');
});

test("an allow rule of the user's naming install_skill passes it without a question", async () => {
  const booted = await bootSkills([useTools([call('install_skill', { url: URL_ })]), say('ok')], { plugins: [createPermissionRulesPlugin()], cli: cliOptions({ allowedTools: ['install_skill'] }) });
  const asked = userAnswers(booted.kernel, 'deny');
  await collect(booted.kernel.run({ prompt: 'install it', mode: 'default' }));
  expect(asked).toEqual([]);
  expect(existsSync(path.join(booted.home, '.mewcode', 'skills', 'release-notes', 'SKILL.md'))).toBe(true);
});
