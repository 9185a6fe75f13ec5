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
