/**
 * An inline skill's `model:` sends the turn it is activated for to that model, as a command file's
 * `model:` does: `/name` before its prompt is sent, `load_skill` for the rest of its turn; the
 * session's model comes back with the next prompt.
 */
import path from 'node:path';
import { collect } from '../../support/boot.js';
import { call, say, useTools, type Step } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { bootSkills, writeSkill, type SkillsKernel } from './helpers.js';

afterEach(() => removeTempDirs());

function project(): string {
  const root = temp('skills-project-');
  writeSkill(path.join(root, '.mewcode', 'skills'), 'quick', { name: 'quick', description: 'Quick answers.', model: 'fast-model' }, 'Answer quickly: $ARGUMENTS\n');
  return root;
}

/** A step that notes the model the session is on when the request is made. */
function noting(seen: string[], booted: () => SkillsKernel, events: Step): Step {
  return async function* (request, signal) {
    seen.push(booted().kernel.session.currentProvider().model);
    yield* (typeof events === 'function' ? events(request, signal) : events);
  };
}

test('/name switches the model for its turn; the next prompt is back on the session model', async () => {
  const seen: string[] = [];
  let booted: SkillsKernel;
  booted = await bootSkills([noting(seen, () => booted, say('4')), noting(seen, () => booted, say('ok'))], { project: project() });
  const command = booted.kernel.commands().find((c) => c.name === 'quick')!;
  const result = await command.run(booted.kernel.session, 'what is 2+2', { mode: 'default' });
  expect(result.prompt).toBeDefined();
  await collect(booted.kernel.run({ prompt: result.prompt!, mode: 'default' }));
  await collect(booted.kernel.run({ prompt: 'and now?', mode: 'default' }));
  expect(seen).toEqual(['fast-model', 'memory-model']);
});

test('load_skill switches the rest of its turn to the skill model; the next prompt is back on the session model', async () => {
  const seen: string[] = [];
  let booted: SkillsKernel;
  booted = await bootSkills(
    [noting(seen, () => booted, useTools([call('load_skill', { name: 'quick' })])), noting(seen, () => booted, say('4')), noting(seen, () => booted, say('ok'))],
    { project: project() },
  );
  await collect(booted.kernel.run({ prompt: 'quick: 2+2', mode: 'default' }));
  await collect(booted.kernel.run({ prompt: 'next', mode: 'default' }));
  expect(seen).toEqual(['memory-model', 'fast-model', 'memory-model']);
});
