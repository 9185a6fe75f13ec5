/**
 * A user's command typed as `/name args` passes userPromptSubmit as typed before it runs (the
 * kernel's command list does it for every front end); the prompt it expands to runs with that
 * judgement and does not pass the hook again. The judgement is the kernel's: one a plugin makes
 * up, one already used, or one given with another prompt is ignored, and the prompt is judged.
 * MewCode's own (`builtin`) commands pass no hook.
 */
import { ContainerModule } from 'inversify';
import { definePlugin } from '../../types/plugin.js';
import type { Message } from '../../types/messages.js';
import type { PromptJudgement } from '../../types/session.js';
import { TOKENS } from '../../types/tokens.js';
import { bootKernel, collect, doneEvent } from '../support/boot.js';
import { say } from '../support/memory-provider.js';

async function boot() {
  const ran: string[] = [];
  const judged: string[] = [];
  const plugin = definePlugin({
    name: 'judge-test',
    bindings: new ContainerModule(({ bind }) => {
      bind(TOKENS.CommandProvider).toConstantValue({ commands: () => [{ name: 'deploy', description: 'deploys', run: async (_s: unknown, args: string) => (ran.push(args), { prompt: `Deploy ${args}.` }) }] });
      bind(TOKENS.Command).toConstantValue({ name: 'version', description: 'prints', run: async () => (ran.push('version'), { output: '1.0' }) });
    }),
    apply(kernel) {
      kernel.hooks.userPromptSubmit.tapPromise('judge-test', async (submission, context) => {
        judged.push(context.prompt);
        return context.prompt.includes('frozen')
          ? { ...submission, block: { block: true, reason: 'deploys are frozen', by: 'judge-test' } }
          : { ...submission, additionalContext: [...submission.additionalContext, '(judged)'] };
      });
    },
  });
  const booted = await bootKernel([say('one'), say('two'), say('three'), say('four')], [plugin]);
  const command = (name: string) => booted.kernel.commands().find((c) => c.name === name)!;
  return { ...booted, ran, judged, command };
}

const text = (message: Message | undefined): string => JSON.stringify(message);

test('a blocked line stops the command before it runs; the hook saw the line as typed', async () => {
  const { kernel, ran, judged, command } = await boot();
  const result = await command('deploy').run(kernel.session, 'frozen branch', { mode: 'default' });
  expect(result).toEqual({ output: 'Prompt blocked by judge-test: deploys are frozen', isError: true, blocked: true });
  expect(ran).toEqual([]);
  expect(judged).toEqual(['/deploy frozen branch']);
});

test('an allowed line is judged once: its prompt runs with the judgement and its context', async () => {
  const { kernel, model, judged, command } = await boot();
  const result = await command('deploy').run(kernel.session, 'prod', { mode: 'default' });
  expect(result.prompt).toBe('Deploy prod.');
  expect(result.judged).toBeDefined();
  const events = await collect(kernel.run({ prompt: result.prompt!, mode: 'default', judged: result.judged! }));
  expect(doneEvent(events).reason).toBe('completed');
  expect(judged).toEqual(['/deploy prod']);
  expect(text(model.requests[0]!.messages[0])).toContain('(judged)');
  expect(text(model.requests[0]!.messages[0])).toContain('Deploy prod.');
});

test('a judgement used twice, made up, or given with another prompt is ignored: the prompt passes the hook', async () => {
  const { kernel, judged, command } = await boot();
  const result = await command('deploy').run(kernel.session, 'prod', { mode: 'default' });
  await collect(kernel.run({ prompt: result.prompt!, mode: 'default', judged: result.judged! }));
  await collect(kernel.run({ prompt: result.prompt!, mode: 'default', judged: result.judged! }));
  const forged = Object.freeze({ kind: 'prompt-judgement' }) as PromptJudgement;
  const blocked = await collect(kernel.run({ prompt: 'frozen: deploy anyway', mode: 'default', judged: forged }));
  expect(doneEvent(blocked).reason).toBe('blocked');
  const other = await command('deploy').run(kernel.session, 'staging', { mode: 'default' });
  const swapped = await collect(kernel.run({ prompt: 'frozen: something else', mode: 'default', judged: other.judged! }));
  expect(doneEvent(swapped).reason).toBe('blocked');
  expect(judged).toEqual(['/deploy prod', 'Deploy prod.', 'frozen: deploy anyway', '/deploy staging', 'frozen: something else']);
});

test("MewCode's own commands pass no userPromptSubmit", async () => {
  const { kernel, judged, command } = await boot();
  expect(await command('version').run(kernel.session, '', { mode: 'default' })).toEqual({ output: '1.0' });
  expect(judged).toEqual([]);
});
