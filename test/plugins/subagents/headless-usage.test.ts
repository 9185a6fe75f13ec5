/**
 * `mewcode -p --output-format json`: the result object counts the tokens every agent has spent by
 * the time the main run ends, a background task still running included (it has made requests; its
 * `done` comes later, or never when the session's end stops it).
 */
import { afterEach, expect, test } from '@jest/globals';
import { PassThrough, Readable } from 'node:stream';
import { HeadlessUserInterface } from '../../../plugins/ui-headless/headless-ui.js';
import { createSubagentsPlugin } from '../../../plugins/subagents/index.js';
import type { CliOptions } from '../../../types/plugin.js';
import { bootKernel } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { toolsPlugin } from '../../support/test-tools.js';
import { deferred, promptOf, routedSteps, turnOf } from '../../kernel/kernel-v2-helpers.js';
import { waitingTool } from './scripted.js';

afterEach(removeTempDirs);

test('the result object counts a background task that is still running when the main run ends', async () => {
  const entered = deferred();
  const wait = waitingTool(entered);
  const steps = routedSteps(4, async (request) => {
    if (promptOf(request) === 'bg work') return useTools([call('mcp__slow__wait', {})]);
    if (turnOf(request) === 0) return useTools([call('agent', { description: 'bg', prompt: 'bg work', run_in_background: true })]);
    await entered.promise;
    return say('main done');
  });
  const cwd = temp('mewcode-usage-root-');
  const { kernel } = await bootKernel(steps, [toolsPlugin([wait]), createSubagentsPlugin()], { projectRoot: cwd, homeDir: temp('mewcode-usage-home-') });
  const out = new PassThrough();
  const chunks: string[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  const options: CliOptions = { prompt: 'go', outputFormat: 'json', permissionMode: 'default', permissionModeGiven: true, debugBoot: false, cwd, allowedTools: [], disallowedTools: [] };
  // No piped prompt: the test runner's own stdin (a worker's never-ending pipe) is not read.
  expect(await new HeadlessUserInterface(out, new PassThrough(), undefined, Readable.from([])).run(kernel, options)).toBe(0);
  await kernel.shutdown();
  const result = JSON.parse(chunks.join(''));
  const agents = Object.keys(result.usage_by_agent);
  expect(agents).toEqual(['main', expect.stringMatching(/^agent-[0-9a-f]{8}$/)]);
  expect(result.usage_by_agent.main).toMatchObject({ input_tokens: 20, output_tokens: 10 });
  expect(result.usage_by_agent[agents[1]!]).toMatchObject({ input_tokens: 10, output_tokens: 5 });
  expect(result.usage).toMatchObject({ input_tokens: 30, output_tokens: 15 });
});
