/**
 * The three file tools as plugins in a real kernel: registered under their model-visible names,
 * sharing the session's FileReadTracker, so read_file → edit_file → write_file works through the
 * agent loop, and an edit without a read is refused through it too.
 */
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import outputLimits from '../../../plugins/output-limits/index.js';
import readFilePlugin from '../../../plugins/tool-read-file/index.js';
import writeFilePlugin from '../../../plugins/tool-write-file/index.js';
import editFilePlugin from '../../../plugins/tool-edit-file/index.js';
import { toolCategory } from '../../../types/tools.js';
import { definePlugin } from '../../../types/plugin.js';
import { bootKernel, doneEvent, runPrompt } from '../../support/boot.js';
import { call, say, useTools } from '../../support/memory-provider.js';

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mc-tools-kernel-')));
  await mkdir(path.join(root, 'src'));
  await writeFile(path.join(root, 'src', 'app.ts'), 'export const greeting = "hello";\n');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

function results(model: { requests: { messages: readonly unknown[] }[] }, request: number): { content: string; isError: boolean }[] {
  return (model.requests[request]!.messages.at(-1) as { results: { content: string; isError: boolean }[] }).results;
}

test('registered by name with their categories; read → edit → write runs through the loop', async () => {
  const steps = [
    useTools([call('edit_file', { file_path: 'src/app.ts', old_string: 'hello', new_string: 'hi' })]),
    useTools([call('read_file', { path: 'src/app.ts' })]),
    useTools([call('edit_file', { file_path: 'src/app.ts', old_string: '"hello"', new_string: '"bye"' })]),
    useTools([call('write_file', { path: 'src/app.ts', content: 'export const greeting = "final";\n' })]),
    say('done'),
  ];
  const { kernel, model } = await bootKernel(steps, [outputLimits, readFilePlugin, writeFilePlugin, editFilePlugin], { projectRoot: root, homeDir: root });
  expect(kernel.tools.list().map((t) => [t.name, toolCategory(t)])).toEqual([
    ['read_file', 'read'],
    ['write_file', 'write'],
    ['edit_file', 'write'],
  ]);
  expect(kernel.tools.definitions().map((d) => d.name)).toEqual(['read_file', 'write_file', 'edit_file']);

  const events = await runPrompt(kernel, 'change the greeting');
  expect(doneEvent(events).reason).toBe('completed');
  const [refused] = results(model, 1);
  expect(refused).toMatchObject({ isError: true, content: expect.stringMatching(/^Refusing to edit src\/app\.ts: it has not been read in this session/) });
  expect(results(model, 2)[0]).toMatchObject({ isError: false, content: '     1\texport const greeting = "hello";' });
  expect(results(model, 3)[0]).toMatchObject({
    isError: false,
    content: ['Edited src/app.ts: replaced 1 occurrence (line 1).', '@@ -1,1 +1,1 @@', '-export const greeting = "hello";', '+export const greeting = "bye";'].join('\n'),
  });
  expect(results(model, 4)[0]).toMatchObject({ isError: false, content: 'Wrote 33 bytes (1 line) to src/app.ts.' });
  expect(await readFile(path.join(root, 'src', 'app.ts'), 'utf8')).toBe('export const greeting = "final";\n');
  expect(kernel.fileReads.recent(5)).toEqual([path.join(root, 'src', 'app.ts')]);
});

test("a read whose output a policy withheld does not count as read; one whose output reached the model counts in the same answer", async () => {
  // A policy that withholds the output of reads of one file (as a DLP plugin would).
  const withhold = definePlugin({
    name: 'dlp',
    apply(kernel) {
      kernel.hooks.postToolUse.tapPromise({ name: 'dlp', stage: 950 }, async (result, context) =>
        context.call.name === 'read_file' && String(context.input.file_path).endsWith('secret.ts') ? { ...result, isError: true, content: 'Output withheld by policy.' } : result,
      );
    },
  });
  await writeFile(path.join(root, 'src', 'secret.ts'), 'export const key = "k";\n');
  const steps = [
    // Read and edit in one answer: the read's output is withheld, so the edit is refused.
    useTools([call('read_file', { path: 'src/secret.ts' }), call('edit_file', { file_path: 'src/secret.ts', old_string: '"k"', new_string: '"x"' })]),
    // A later turn: still never read.
    useTools([call('write_file', { path: 'src/secret.ts', content: 'overwritten\n' })]),
    // A file whose read reached the model: editable in the same answer.
    useTools([call('read_file', { path: 'src/app.ts' }), call('edit_file', { file_path: 'src/app.ts', old_string: '"hello"', new_string: '"bye"' })]),
    say('done'),
  ];
  const { kernel, model } = await bootKernel(steps, [outputLimits, readFilePlugin, writeFilePlugin, editFilePlugin, withhold], { projectRoot: root, homeDir: root });
  expect(doneEvent(await runPrompt(kernel, 'go')).reason).toBe('completed');
  expect(results(model, 1).map((r) => r.content.slice(0, 40))).toEqual(['Output withheld by policy.', 'Refusing to edit src/secret.ts: it has n']);
  expect(results(model, 2)[0]!.content).toMatch(/src\/secret\.ts.*not been read|has not been read.*src\/secret\.ts|read_file/);
  expect(results(model, 2)[0]!.isError).toBe(true);
  expect(results(model, 3).map((r) => r.isError)).toEqual([false, false]);
  expect(await readFile(path.join(root, 'src', 'secret.ts'), 'utf8')).toBe('export const key = "k";\n');
  expect(kernel.fileReads.recent(5)).toEqual([path.join(root, 'src', 'app.ts')]);
});
