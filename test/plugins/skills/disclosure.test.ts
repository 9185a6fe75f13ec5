/**
 * S3–S5, K3 in a real kernel: the catalog in the stable prompt, bodies only after
 * load_skill (re-read from disk each time), active skills in the environment block in activation
 * order, cleared for a new or another resumed session, re-injected after a compaction; skill
 * commands pass their arguments; hot reload swaps whole catalogs.
 */
import { mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { definePlugin } from '../../../types/plugin.js';
import type { CompactionService } from '../../../types/session.js';
import { RELOAD_DEBOUNCE_MS } from '../../../plugins/skills/watcher.js';
import { TOKENS } from '../../../types/tokens.js';
import { collect } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootSkills, waitUntil, writeSkill } from './helpers.js';

afterEach(() => removeTempDirs());

/** The commands skills contribute (the built-in /skills left out). */
const skillCommands = (kernel: { commands(): readonly { name: string }[] }): string[] => kernel.commands().map((c) => c.name).filter((name) => name !== 'skills');

const toolResults = (messages: readonly Message[]): string[] => messages.filter((m): m is ToolMessage => m.role === 'tool').flatMap((m) => m.results.map((r) => r.content));

function seed(root: string): void {
  writeSkill(root, 'zeta', { name: 'zeta', description: 'Last in order.' }, 'ZETA BODY for $ARGUMENTS.\n');
  writeSkill(root, 'alpha', { name: 'alpha', description: 'First in order.', 'allowed-tools': 'Read, Grep' }, 'ALPHA BODY\n');
}

test('catalog (sorted) in the stable prompt, byte-identical across requests; the body reaches the model only after load_skill', async () => {
  const project = temp('skills-project-');
  const projectSkills = path.join(project, '.mewcode', 'skills');
  seed(projectSkills);
  const { kernel, model } = await bootSkills([useTools([call('load_skill', { name: 'alpha', arguments: 'the parser' })]), say('done'), say('again')], { project });
  await collect(kernel.run({ prompt: 'fix the parser', mode: 'bypassPermissions' }));
  await collect(kernel.run({ prompt: 'and now?', mode: 'bypassPermissions' }));
  const [first, second, third] = model.requests;
  expect(first!.system.stable).toContain('# Skills\n');
  expect(first!.system.stable).toContain('- alpha: First in order.\n- zeta: Last in order.');
  expect(first!.system.stable).not.toContain('ALPHA BODY');
  expect(first!.system.environment).not.toContain('Active Skills');
  expect(first!.tools.map((t) => t.name)).toContain('load_skill');
  // After load_skill: the body, its allowed-tools hint and the arguments under "## User Request", in the environment.
  expect(second!.system.environment).toContain('# Active Skills');
  expect(second!.system.environment).toContain('## Skill: alpha\nBase directory (paths in the skill are relative to it): ' + path.join(projectSkills, 'alpha'));
  expect(second!.system.environment).toContain('This skill is designed to use only these tools: Read, Grep. Prefer them over other tools when possible.\n\n---\n\nALPHA BODY\n\n## User Request\n\nthe parser');
  expect(second!.system.stable).toBe(first!.system.stable);
  expect(third!.system.stable).toBe(first!.system.stable);
  expect(third!.system.environment).toContain('ALPHA BODY'); // stays active on later turns
  // The result is short: the body is not in history twice.
  expect(toolResults(second!.messages)).toEqual(['The skill "alpha" is active: its instructions are in the Active Skills section of the system prompt from the next request on. Follow them now.']);
});

test('activation order is kept, a re-activation replaces in place with the body as it is on disk now', async () => {
  const booted = await bootSkills([]);
  seed(booted.projectSkills);
  await booted.runtime.reload();
  booted.model.steps.push(
    useTools([call('load_skill', { name: 'zeta', arguments: 'one' })]),
    useTools([call('load_skill', { name: 'alpha' })]),
    useTools([call('load_skill', { name: 'ZETA', arguments: 'two' })]),
    say('done'),
  );
  const { model, projectSkills, kernel } = booted;
  // Edit zeta between its two activations: the second load reads the new text.
  let edits = 0;
  kernel.hooks.preToolUse.tapPromise('test-edit', async (decision, context) => {
    if (context.call.name === 'load_skill' && ++edits === 3) writeFileSync(path.join(projectSkills, 'zeta', 'SKILL.md'), '---\nname: zeta\ndescription: Last in order.\n---\nZETA v2 for $ARGUMENTS.\n');
    return decision;
  });
  await collect(kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  const env = model.requests[3]!.system.environment;
  expect(env.indexOf('## Skill: zeta')).toBeLessThan(env.indexOf('## Skill: alpha'));
  expect(env).toContain('ZETA v2 for two.');
  expect(env).not.toContain('ZETA BODY');
  expect(env.match(/## Skill: zeta/g)).toHaveLength(1);
});

test('an unknown name and a removed folder are error results the model can act on', async () => {
  const booted = await bootSkills([]);
  seed(booted.projectSkills);
  await booted.runtime.reload();
  rmSync(path.join(booted.projectSkills, 'zeta'), { recursive: true });
  booted.model.steps.push(useTools([call('load_skill', { name: 'nope' }), call('load_skill', { name: 'zeta' }), call('load_skill', {})]), say('ok'));
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  const results = toolResults(booted.model.requests[1]!.messages);
  expect(results[0]).toBe('Unknown skill "nope". Available skills: alpha, zeta. Use one of these names exactly.');
  expect(results[1]).toContain(`Cannot read the skill "zeta" (${path.join(booted.projectSkills, 'zeta', 'SKILL.md')})`);
  expect(results[2]).toBe('load_skill needs `name`: a skill name from the Skills section of the system prompt.');
});

test('/<name> args: the command activates the skill with its arguments and continues with a prompt naming it', async () => {
  const booted = await bootSkills([say('reviewed')]);
  seed(booted.projectSkills);
  await booted.runtime.reload();
  const command = booted.kernel.commands().find((c) => c.name === 'zeta')!;
  expect(command.description).toBe('Last in order. [skill]');
  const result = await command.run(booted.kernel.session, 'src/app.ts and tests', { mode: 'default' });
  // `judged`: the kernel's userPromptSubmit judgement of the typed line, for the prompt's run.
  expect(result).toEqual({ prompt: 'Use the "zeta" skill: it is now active and its instructions are in the Active Skills section of the system prompt.\n\nsrc/app.ts and tests', judged: expect.anything() });
  await collect(booted.kernel.run({ prompt: result.prompt!, mode: 'bypassPermissions', judged: result.judged! }));
  expect(booted.model.requests[0]!.system.environment).toContain('ZETA BODY for src/app.ts and tests.');
});

test('a new session clears the active skills; resuming another session clears them, the same session keeps them', async () => {
  const booted = await bootSkills([]);
  seed(booted.projectSkills);
  await booted.runtime.reload();
  const { kernel, runtime } = booted;
  await kernel.commands().find((c) => c.name === 'alpha')!.run(kernel.session, '', { mode: 'default' });
  expect(runtime.active.list(kernel.session).map((e) => e.name)).toEqual(['alpha']);
  await kernel.startSession();
  expect(runtime.active.list(kernel.session)).toEqual([]);

  await kernel.commands().find((c) => c.name === 'alpha')!.run(kernel.session, '', { mode: 'default' });
  const same = await kernel.resumeSession({ sessionId: kernel.session.sessionId, messages: [] });
  expect(runtime.active.list(same).map((e) => e.name)).toEqual(['alpha']);
  const other = await kernel.resumeSession({ sessionId: '20261201-000000-beef', messages: [] });
  expect(runtime.active.list(other)).toEqual([]);
  expect(runtime.active.list(same)).toEqual([]);
});

test('after a compaction the active skills are re-read from disk and a re-injected note says they still apply', async () => {
  const summary: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'SUMMARY' }] }, { role: 'assistant', content: [{ type: 'text', text: 'noted' }], toolCalls: [] }];
  const service: CompactionService = { shouldCompact: () => false, compact: async () => summary };
  const compaction = definePlugin({ name: 'test-compaction', bindings: new ContainerModule(({ bind }) => void bind(TOKENS.CompactionService).toConstantValue(service)) });
  const booted = await bootSkills([useTools([call('load_skill', { name: 'zeta', arguments: 'x' })]), say('a'), say('b')], { plugins: [compaction] });
  seed(booted.projectSkills);
  await booted.runtime.reload();
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  writeFileSync(path.join(booted.projectSkills, 'zeta', 'SKILL.md'), '---\nname: zeta\ndescription: d\n---\nZETA AFTER for $ARGUMENTS.\n');
  expect(await booted.kernel.compactNow('default')).toBe(true);
  await collect(booted.kernel.run({ prompt: 'next', mode: 'bypassPermissions' }));
  const request = booted.model.requests[2]!;
  expect(request.system.environment).toContain('ZETA AFTER for x.');
  // The note stands after the summary as the kernel's re-injected (persisted) message.
  expect(JSON.stringify(request.messages)).toContain('Restored after the conversation was summarised');
  expect(JSON.stringify(request.messages)).toContain('These skills are still active and their instructions are in the Active Skills section: zeta.');
});

test('hot reload: a new folder becomes a command and loadable; overlapping reloads all resolve to the newest complete catalog', async () => {
  const booted = await bootSkills([]);
  seed(booted.projectSkills);
  const before = await booted.runtime.reload();
  expect(skillCommands(booted.kernel)).toEqual(['alpha', 'zeta']);
  writeSkill(booted.projectSkills, 'new-one', { name: 'new-one', description: 'Added later.' }, 'NEW\n');
  const [a, b, c] = await Promise.all([booted.runtime.reload(), booted.runtime.reload(), booted.runtime.reload()]);
  expect(a).toBe(c);
  expect(b).toBe(c);
  expect(c).not.toBe(before);
  expect(booted.runtime.store.current).toBe(c);
  expect(c!.skills.map((s) => s.name)).toEqual(['alpha', 'new-one', 'zeta']);
  expect(skillCommands(booted.kernel)).toEqual(['alpha', 'new-one', 'zeta']);
  // The old catalog object is untouched (readers holding it never see a half scan).
  expect(before.skills.map((s) => s.name)).toEqual(['alpha', 'zeta']);
});

test('the watcher reloads the catalog when a skill folder appears', async () => {
  const booted = await bootSkills([]);
  seed(booted.projectSkills);
  await booted.runtime.reload();
  booted.runtime.watch();
  try {
    writeSkill(booted.projectSkills, 'watched', { name: 'watched', description: 'Seen by the watcher.' }, 'W\n');
    await waitUntil(() => booted.runtime.store.current.get('watched') !== undefined);
    expect(booted.runtime.store.current.get('watched')?.description).toBe('Seen by the watcher.');
  } finally {
    booted.runtime.stopWatching();
  }
});

test('the watcher notices a skills folder created during the session (the root did not exist at start)', async () => {
  const booted = await bootSkills([]);
  expect(booted.runtime.store.current.skills).toEqual([]);
  booted.runtime.watch();
  try {
    writeSkill(booted.projectSkills, 'late', { name: 'late', description: 'Created later.' }, 'L\n');
    await waitUntil(() => booted.runtime.store.current.get('late') !== undefined);
    expect(booted.runtime.store.current.get('late')?.description).toBe('Created later.');
    expect(booted.kernel.commands().map((c) => c.name)).toContain('late');
  } finally {
    booted.runtime.stopWatching();
  }
});

test('changes in the project root that make no skills root scan nothing; the watch still follows the way to one', async () => {
  const booted = await bootSkills([]);
  const before = booted.runtime.store.current;
  booted.runtime.watch();
  try {
    // What a session does there all the time: files saved, and a sandboxed command's empty
    // mount points over missing protected names (`.claude` among them) made and removed.
    writeFileSync(path.join(booted.project, 'notes.txt'), 'x\n');
    for (const name of ['.vscode', '.idea', '.claude', '.mcp.json']) {
      mkdirSync(path.join(booted.project, name));
      rmdirSync(path.join(booted.project, name));
    }
    mkdirSync(path.join(booted.project, '.claude')); // stays, empty: the way to .claude/skills is now through it
    await new Promise((resolve) => setTimeout(resolve, RELOAD_DEBOUNCE_MS * 4));
    expect(booted.runtime.store.current).toBe(before); // no scan: the same catalog object
    writeSkill(path.join(booted.project, '.claude', 'skills'), 'later', { name: 'later', description: 'Under .claude.' }, 'L\n');
    await waitUntil(() => booted.runtime.store.current.get('later') !== undefined);
    expect(booted.runtime.store.current.get('later')?.description).toBe('Under .claude.');
  } finally {
    booted.runtime.stopWatching();
  }
});

test('a folder on the way to a skills root, removed and made again within one quiet period, is watched anew', async () => {
  const booted = await bootSkills([]);
  const claude = path.join(booted.project, '.claude');
  mkdirSync(claude); // the way to .claude/skills is through it from the start
  booted.runtime.watch();
  try {
    rmdirSync(claude);
    mkdirSync(claude);
    await new Promise((resolve) => setTimeout(resolve, RELOAD_DEBOUNCE_MS * 4));
    writeSkill(path.join(claude, 'skills'), 'again', { name: 'again', description: 'In the new .claude.' }, 'A\n');
    await waitUntil(() => booted.runtime.store.current.get('again') !== undefined);
    expect(booted.runtime.store.current.get('again')?.description).toBe('In the new .claude.');
  } finally {
    booted.runtime.stopWatching();
  }
});

test('a skills root removed during the session takes its skills out of the catalog', async () => {
  const booted = await bootSkills([]);
  seed(booted.projectSkills);
  await booted.runtime.reload();
  expect(booted.runtime.store.current.skills.length).toBeGreaterThan(0);
  booted.runtime.watch();
  try {
    rmSync(booted.projectSkills, { recursive: true });
    await waitUntil(() => booted.runtime.store.current.skills.length === 0);
    expect(booted.runtime.store.current.skills).toEqual([]);
  } finally {
    booted.runtime.stopWatching();
  }
});

test('problems are warned once each, prefixed and naming the file (K2)', async () => {
  const booted = await bootSkills([]);
  writeSkill(booted.projectSkills, 'Bad Name', { name: '"Bad Name"', description: 'x' }, 'B\n');
  await booted.runtime.reload();
  await booted.runtime.reload();
  const file = path.join(booted.projectSkills, 'Bad Name', 'SKILL.md');
  expect(booted.reporter.warnings.filter((w) => w.includes(file))).toEqual([`skills: ${file}: name "Bad Name" is not a valid skill name (lower-case letters, digits, -, _, :); loaded as "bad-name"`]);
});

test("Claude Code's disable-model-invocation and user-invocable: out of the catalog / no command, as Claude Code does", async () => {
  const project = temp('skills-project-');
  const root = path.join(project, '.mewcode', 'skills');
  writeSkill(root, 'deploy', { name: 'deploy', description: 'Deploy to production.', 'disable-model-invocation': 'true' }, 'DEPLOY BODY\n');
  writeSkill(root, 'background', { name: 'background', description: 'Context the model may load.', 'user-invocable': 'false' }, 'BACKGROUND BODY\n');
  const booted = await bootSkills([useTools([call('load_skill', { name: 'deploy' })]), say('ok')], { project });
  expect(skillCommands(booted.kernel)).toEqual(['deploy']);
  await collect(booted.kernel.run({ prompt: 'ship it', mode: 'bypassPermissions' }));
  const stable = booted.model.requests[0]!.system.stable;
  expect(stable).toContain('- background: Context the model may load.');
  expect(stable).not.toContain('deploy');
  expect(toolResults(booted.model.requests[1]!.messages)).toEqual(['The skill "deploy" is run only by the user (/deploy); it cannot be loaded with load_skill.']);
});

test('a skill named like a built-in command gets no command of its own (a warning says so) but still loads', async () => {
  const project = temp('skills-project-');
  const file = path.join(writeSkill(path.join(project, '.mewcode', 'skills'), 'skills', { name: 'skills', description: 'Clashes with /skills.' }, 'S\n'), 'SKILL.md');
  const booted = await bootSkills([useTools([call('load_skill', { name: 'skills' })]), say('ok')], { project });
  expect(booted.kernel.commands().filter((c) => c.name === 'skills')).toHaveLength(1);
  expect(booted.kernel.commands().find((c) => c.name === 'skills')!.description).toContain('List the skills');
  expect(booted.reporter.warnings).toContain(`skills: ${file}: /skills is a built-in command, so this skill has no slash command (load_skill still activates it)`);
  await collect(booted.kernel.run({ prompt: 'go', mode: 'bypassPermissions' }));
  expect(booted.model.requests[1]!.system.environment).toContain('## Skill: skills');
});

test.each([
  ['yes', 'no'],
  ['on', 'off'],
  ['1', '0'],
  ['YES', '"No"'],
])("the booleans Claude Code accepts (%s / %s): a skill kept from the model stays out of the catalog; one kept from the user has no command", async (yes, no) => {
  const project = temp('skills-project-');
  const root = path.join(project, '.mewcode', 'skills');
  writeSkill(root, 'secret-deploy', { name: 'secret-deploy', description: 'Deploy to production.', 'disable-model-invocation': yes }, 'DEPLOY BODY\n');
  writeSkill(root, 'hidden', { name: 'hidden', description: 'Context the model may load.', 'user-invocable': no }, 'HIDDEN BODY\n');
  writeSkill(root, 'plain', { name: 'plain', description: 'Both ways.', 'disable-model-invocation': no, 'user-invocable': yes }, 'PLAIN BODY\n');
  const booted = await bootSkills([say('ok')], { project });
  expect(skillCommands(booted.kernel).sort()).toEqual(['plain', 'secret-deploy']);
  await collect(booted.kernel.run({ prompt: 'ship it', mode: 'bypassPermissions' }));
  const stable = booted.model.requests[0]!.system.stable;
  expect(stable).toContain('- hidden: Context the model may load.');
  expect(stable).toContain('- plain: Both ways.');
  expect(stable).not.toContain('secret-deploy');
  expect(booted.reporter.warnings).toEqual([]);
});

test('a boolean that is none of the accepted spellings keeps the default, with a warning naming the file and key', async () => {
  const project = temp('skills-project-');
  const root = path.join(project, '.mewcode', 'skills');
  const dir = writeSkill(root, 'odd', { name: 'odd', description: 'Odd.', 'disable-model-invocation': 'maybe' }, 'ODD\n');
  const booted = await bootSkills([say('ok')], { project });
  expect(skillCommands(booted.kernel)).toEqual(['odd']);
  expect(booted.reporter.warnings.join('\n')).toContain(`${path.join(dir, 'SKILL.md')}`);
  expect(booted.reporter.warnings.join('\n')).toMatch(/disable-model-invocation: "maybe" is not a yes\/no value \(true\/false, yes\/no, on\/off, 1\/0\); using false/);
});
