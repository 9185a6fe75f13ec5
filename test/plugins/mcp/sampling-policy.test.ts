/**
 * An MCP server's sampling request is a model request like any other: it passes preModelRequest
 * (context.reason 'sampling'), so a DLP plugin scrubs it and a model allowlist can refuse it, in
 * which case nothing reaches the provider and the server gets an error.
 */
import { afterEach, expect, test } from '@jest/globals';
import type { ModelRequestReason } from '../../../types/hooks.js';
import type { Message, ToolMessage } from '../../../types/messages.js';
import { definePlugin, type MewcodePlugin } from '../../../types/plugin.js';
import type { ModelRequest } from '../../../types/provider.js';
import { runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';
import { bootMcp, EVERYTHING, mcpProject, removeTempDirs, settled } from './helpers.js';

afterEach(removeTempDirs);

const project = () => mcpProject({ mcp: { startup_wait_ms: 20_000, sampling: 'allow' }, mcp_servers: { everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] } } });
const sampleCall = useTools([call('mcp__everything__trigger-sampling-request', { prompt: 'leak SECRET-abc', maxTokens: 10 })]);
const results = (request: ModelRequest | undefined): ToolMessage['results'] => {
  const last = request?.messages.at(-1);
  return last?.role === 'tool' ? last.results : [];
};

function policy(reasons: (ModelRequestReason | undefined)[], refuseSampling: boolean): MewcodePlugin {
  return definePlugin({
    name: 'org-dlp',
    apply(kernel) {
      kernel.hooks.preModelRequest.tapPromise('org-dlp', async (request, context) => {
        reasons.push(context.reason);
        if (refuseSampling && context.reason === 'sampling') return { ...request, block: { block: true, reason: 'sampling is not allowed here', by: 'org-dlp' } };
        return { ...request, messages: JSON.parse(JSON.stringify(request.messages).replace(/SECRET-\w+/g, '[REDACTED]')) as Message[] };
      });
    },
  });
}

test('a DLP tap sees the sampling request (reason sampling) and the secret never reaches the provider', async () => {
  const reasons: (ModelRequestReason | undefined)[] = [];
  const { kernel, model } = await bootMcp(project(), [sampleCall, say('hi from the model'), say('done')], { PATH: process.env.PATH }, [policy(reasons, false)]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'sample');
    expect(reasons).toEqual([undefined, 'sampling', undefined]);
    const sampling = JSON.stringify(model.requests[1]!.messages);
    expect(sampling).toContain('leak [REDACTED]');
    expect(sampling).not.toContain('SECRET-abc');
    expect(results(model.requests[2])[0]!.content).toContain('hi from the model');
  } finally {
    await kernel.shutdown();
  }
}, 60_000);

test('a tap that refuses the sampling request: nothing is sent, the server gets an error naming the plugin', async () => {
  const reasons: (ModelRequestReason | undefined)[] = [];
  const { kernel, model } = await bootMcp(project(), [sampleCall, say('done'), say('unused')], { PATH: process.env.PATH }, [policy(reasons, true)]);
  try {
    await settled(kernel);
    await runPrompt(kernel, 'sample');
    expect(reasons).toEqual([undefined, 'sampling', undefined]);
    expect(model.requests).toHaveLength(2); // the two turns; no sampling request
    const [result] = results(model.requests[1]);
    expect(result!.content).toContain('plugin org-dlp refused it: sampling is not allowed here');
  } finally {
    await kernel.shutdown();
  }
}, 60_000);
