/**
 * The Kernel a plugin's services resolve from the container names that plugin: a call made
 * through it (a custom command's `!` line) reaches checkPermission with the plugin as madeBy. The
 * container's anonymous view (resolved no plugin's way) names nobody, so it makes no call at all.
 */
import { ContainerModule } from 'inversify';
import { definePlugin, type KernelApi } from '../../types/plugin.js';
import type { PermissionRequest } from '../../types/permissions.js';
import { TOKENS } from '../../types/tokens.js';
import { bootKernel } from '../support/boot.js';

const VIEW = Symbol('kernel-view');

function servicePlugin(name: string) {
  return definePlugin({
    name,
    bindings: new ContainerModule(({ bind }) => {
      bind(VIEW).toDynamicValue((context) => context.get<KernelApi>(TOKENS.Kernel)).inSingletonScope();
      bind(TOKENS.Tool).toConstantValue({ name: 'probe_exec', description: 'probe', inputSchema: { type: 'object' }, readOnly: false, execute: async () => ({ content: 'ran' }) });
    }),
  });
}

describe("the container's Kernel and who makes a call", () => {
  test("a plugin's toDynamicValue service gets a Kernel naming the plugin", async () => {
    const asked: (string | undefined)[] = [];
    const judge = definePlugin({
      name: 'judge',
      apply(kernel) {
        kernel.hooks.checkPermission.tapPromise({ name: 'judge', stage: 50 }, async (request: PermissionRequest) => {
          asked.push(request.madeBy);
          return { decision: 'deny', layer: 'judge', reason: 'no' };
        });
      },
    });
    const { kernel } = await bootKernel([], [judge, servicePlugin('line-runner')]);
    const view = kernel.container.get<KernelApi>(VIEW);
    const result = await view.callTool!({ toolName: 'probe_exec', input: {}, callId: 'c1', session: view.session, mode: 'default' });
    expect(result.allowed).toBe(false);
    const request = { toolName: 'probe_exec', input: {}, category: 'exec', target: { kind: 'none' }, mode: 'default', sessionId: view.session.sessionId, agentId: 'main', projectRoot: '/tmp/project' } as unknown as PermissionRequest;
    await view.decidePermission!(request, 'c2');
    expect(asked.length).toBeGreaterThan(0);
    expect(new Set(asked)).toEqual(new Set(['line-runner']));
    await kernel.shutdown();
  });

  test('the anonymous view makes no call, decision or ask, and says why', async () => {
    const { kernel } = await bootKernel([], []);
    const shared = kernel.container.get<KernelApi>(TOKENS.Kernel);
    const result = await shared.callTool!({ toolName: 'nope', input: {}, callId: 'c1', session: shared.session, mode: 'default' });
    expect(result).toMatchObject({ allowed: false, content: expect.stringContaining('names no plugin') });
    const request = { toolName: 'nope', input: {}, mode: 'default', sessionId: shared.session.sessionId, agentId: 'main', projectRoot: '/tmp/project' } as unknown as PermissionRequest;
    expect(await shared.decidePermission!(request, 'c2')).toMatchObject({ decision: 'deny', reason: expect.stringContaining('names no plugin') });
    await kernel.shutdown();
  });
});
