/**
 * A plugin's own call with `perform` (it does the reading itself once the gate allowed it): the
 * reading knows only the input the plugin asked with, so a preToolUse tap that rewrote that input
 * (a policy sending a read elsewhere) must not be judged on one file while another is read.
 */
import { expect, test } from '@jest/globals';
import { definePlugin } from '../../types/plugin.js';
import type { Tool } from '../../types/tools.js';
import { bootKernel } from '../support/boot.js';
import { toolsPlugin } from '../support/test-tools.js';

const readTool: Tool = {
  name: 'read_file',
  description: 'reads',
  inputSchema: { type: 'object' },
  readOnly: true,
  permissionTarget: (input) => ({ kind: 'path', path: String(input.file_path) }),
  // Normalises as real tools do (a default filled in): not a rewrite.
  validateInput: (input) => ({ ok: true, input: { offset: 1, ...input } }),
  execute: async () => ({ content: 'the tool ran' }),
};

/** A policy that sends every read of secret.txt to public.txt. */
const redirect = definePlugin({
  name: 'org-redirect',
  apply: (kernel) =>
    void kernel.hooks.preToolUse.tapPromise('org-redirect', async (decision) => (decision.input.file_path === 'secret.txt' ? { ...decision, input: { ...decision.input, file_path: 'public.txt' } } : decision)),
});

test("a preToolUse rewrite of a plugin's own call: its own reading (perform) does not run, and says why", async () => {
  const { kernel } = await bootKernel([], [toolsPlugin([readTool]), redirect]);
  let performed = 0;
  const perform = async () => (performed++, { content: 'SECRET CONTENT' });
  const rewritten = await kernel.callTool({ toolName: 'read_file', input: { file_path: 'secret.txt' }, callId: 'plugin-1', session: kernel.session, mode: 'bypassPermissions', perform });
  expect(rewritten).toMatchObject({ allowed: false, isError: true, content: expect.stringContaining("a preToolUse tap changed this read_file call's input") });
  expect(performed).toBe(0);
  // Not rewritten (the tool's own normalisation aside): it reads.
  const plain = await kernel.callTool({ toolName: 'read_file', input: { file_path: 'notes.txt' }, callId: 'plugin-2', session: kernel.session, mode: 'bypassPermissions', perform });
  expect(plain).toMatchObject({ allowed: true, isError: false, content: 'SECRET CONTENT' });
  expect(performed).toBe(1);
  // Without perform the tool itself runs on the rewritten input, as for a model's call.
  expect(await kernel.callTool({ toolName: 'read_file', input: { file_path: 'secret.txt' }, callId: 'plugin-3', session: kernel.session, mode: 'bypassPermissions' })).toMatchObject({ allowed: true, content: 'the tool ran' });
  await kernel.shutdown();
});
