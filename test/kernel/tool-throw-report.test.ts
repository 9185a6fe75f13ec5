/**
 * A tool that throws: the model gets the short message as the call's result, and under debug
 * (MEWCODE_DEBUG=plugins, as --debug) the user is also told, once, naming the tool and the plugin
 * that registered it, with the stack of what it threw; never otherwise, and never for a throw the
 * run's cancellation or the tool's timeout caused.
 */
import type { Tool } from '../../types/tools.js';
import { memoryEnv, say, useTools } from '../support/memory-provider.js';
import { bootKernel, doneEvent, runPrompt } from '../support/boot.js';
import { abortableDelay, toolsPlugin } from '../support/test-tools.js';

const THIS_FILE = 'tool-throw-report.test.ts';

function throwingTool(name: string, where: 'execute' | 'permissionTarget'): Tool {
  return {
    name,
    description: 'throws',
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
    ...(where === 'permissionTarget'
      ? {
          permissionTarget() {
            throw new Error(`${name} cannot judge`);
          },
        }
      : {}),
    async execute() {
      throw new Error(`${name} broke`);
    },
  };
}

/** A tool that runs until its signal fires, then throws (as an aborted fetch does). */
const slowTool: Tool = {
  name: 'slow',
  description: 'waits',
  inputSchema: { type: 'object', properties: {} },
  readOnly: true,
  timeoutMs: () => 50,
  async execute(_input, context) {
    await abortableDelay(10_000, context.signal);
    return { content: 'never' };
  },
};

const calls = [
  { id: 'c1', name: 'boom', input: '{}' },
  { id: 'c2', name: 'judge', input: '{}' },
  { id: 'c3', name: 'slow', input: '{}' },
];

async function runWith(env: Record<string, string>): Promise<{ warnings: string[]; results: string[] }> {
  const { kernel, model, reporter } = await bootKernel(
    // The same calls twice: a failure is said once however often it happens.
    [useTools(calls), useTools(calls.map((call) => ({ ...call, id: `${call.id}b` }))), say('done')],
    [toolsPlugin([throwingTool('boom', 'execute'), throwingTool('judge', 'permissionTarget'), slowTool], 'faulty-tools')],
    { env: { ...memoryEnv, ...env } },
  );
  expect(doneEvent(await runPrompt(kernel, 'go')).reason).toBe('completed');
  const last = model.requests[1]!.messages.at(-1)!;
  return { warnings: reporter.warnings, results: last.role === 'tool' ? last.results.map((r) => r.content) : [] };
}

const SHORT = ['Tool boom failed: boom broke', 'Tool judge failed: judge cannot judge', 'Tool slow timed out after 50 ms.'];

test('under debug: each throw said once, naming the tool and its plugin, with the stack of what it threw', async () => {
  const { warnings, results } = await runWith({ MEWCODE_DEBUG: 'plugins' });
  expect(results).toEqual(SHORT);
  expect(warnings).toHaveLength(2);
  // The gates of a batch run before its calls: judge's throw comes first.
  const [judge, boom] = warnings as [string, string];
  expect(boom.split('\n').slice(0, 2)).toEqual(["plugin faulty-tools's tool boom threw: boom broke", 'Error: boom broke']);
  expect(boom.split('\n')[2]).toContain(THIS_FILE);
  // Thrown while the gate asked the tool what the call touches.
  expect(judge.split('\n').slice(0, 2)).toEqual(["plugin faulty-tools's tool judge threw: judge cannot judge", 'Error: judge cannot judge']);
  expect(judge.split('\n')[2]).toContain(THIS_FILE);
});

test('without debug: nothing is said, the model still gets the short message', async () => {
  const { warnings, results } = await runWith({});
  expect(results).toEqual(SHORT);
  expect(warnings).toEqual([]);
});
