// Compaction layer 1 (C5): the 50,000 / 200,000-byte boundaries, the preview, decisions that
// stay put across requests, a failed save tried again, and the plugin in a real kernel.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kernel } from '../../../kernel/kernel.js';
import { MemoryReporter } from '../../../kernel/reporter.js';
import { createCompactionPlugin } from '../../../plugins/compaction/index.js';
import { LayerOne } from '../../../plugins/compaction/layer-one.js';
import { MESSAGE_MAX_BYTES, PREVIEW_BYTES, RESULT_MAX_BYTES, previewOf, resultsToOffload } from '../../../plugins/compaction/offload.js';
import { resultFile, resultFileName } from '../../../plugins/compaction/tool-result-files.js';
import permissionMode from '../../../plugins/permission-mode/index.js';
import type { Message, ToolMessage, ToolResult } from '../../../types/messages.js';
import type { Tool } from '../../../types/tools.js';
import { runPrompt } from '../../support/boot.js';
import { call, memoryEnv, memoryModel, say, useTools } from '../../support/memory-provider.js';
import { toolsPlugin } from '../../support/test-tools.js';

const SESSION = '20261201-120000-abcd';
const result = (id: string, content: string): ToolResult => ({ toolCallId: id, content, isError: false });
const toolMessage = (...results: ToolResult[]): ToolMessage => ({ role: 'tool', results });

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-layer-one-')));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('which results leave the request', () => {
  test(`a result of exactly ${RESULT_MAX_BYTES} bytes stays; one byte more leaves; bytes, not characters, count`, () => {
    expect(resultsToOffload([result('a', 'x'.repeat(RESULT_MAX_BYTES))])).toEqual(new Set());
    expect(resultsToOffload([result('a', 'x'.repeat(RESULT_MAX_BYTES + 1))])).toEqual(new Set([0]));
    expect(resultsToOffload([result('a', 'é'.repeat(RESULT_MAX_BYTES / 2 + 1))])).toEqual(new Set([0])); // 25,001 characters, 50,002 bytes
  });

  test(`a message of exactly ${MESSAGE_MAX_BYTES} bytes stays whole; one byte more: the largest leave first (ties: the earlier call)`, () => {
    const four = ['a', 'b', 'c', 'd'].map((id) => result(id, 'x'.repeat(RESULT_MAX_BYTES)));
    expect(resultsToOffload(four)).toEqual(new Set());
    expect(resultsToOffload([...four, result('e', 'y')])).toEqual(new Set([0]));
    expect(resultsToOffload([result('small', 'x'.repeat(10)), result('big', 'x'.repeat(49_000)), ...four.slice(0, 3), result('mid', 'x'.repeat(20_000))])).toEqual(new Set([2]));
    // positions, not ids: a repeated id never drags a small result along
    expect(resultsToOffload([result('same', 'x'.repeat(RESULT_MAX_BYTES + 1)), result('same', 'small')])).toEqual(new Set([0]));
  });

  test('the preview gives the size, the file, the first 20 lines within 2,048 bytes, and says to read the file', () => {
    const content = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const preview = previewOf(content, '.mewcode/sessions/x/tool-results/call_1');
    expect(preview.split('\n').slice(0, 2)).toEqual([
      `[This tool result was ${Buffer.byteLength(content).toLocaleString('en-US')} bytes (100 lines), too large to keep in the conversation; it is saved in full to .mewcode/sessions/x/tool-results/call_1.]`,
      '[Read it with read_file in parts of at most 2,000 lines (offset and limit); do not guess what it says. The first 20 lines (150 bytes) follow.]',
    ]);
    // parts small enough that reading one never comes back as another preview
    const lines200 = previewOf(`${'y'.repeat(199)}\n`.repeat(1000), 'f').split('\n')[1]!;
    const perRead = Number(/at most ([\d,]+) lines/.exec(lines200)![1]!.replace(/,/g, ''));
    expect(perRead).toBe(192);
    expect(perRead * (200 + 8)).toBeLessThanOrEqual(RESULT_MAX_BYTES); // with read_file's line numbers
    expect(preview.split('\n').slice(2)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`));
    const wide = previewOf('é'.repeat(5000), 'f');
    expect(Buffer.byteLength(wide.split('\n')[2]!)).toBe(PREVIEW_BYTES); // cut at a character boundary
  });
});

describe('LayerOne', () => {
  const big = 'start of a very large output\n' + 'z'.repeat(60_000);
  const history = (): Message[] => [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content: [], toolCalls: [{ id: 'call_big', name: 'dump', input: '{}' }, { id: 'call_small', name: 'dump', input: '{}' }] },
    toolMessage(result('call_big', big), result('call_small', 'tiny')),
  ];

  test('a large result is saved in full and previewed; the preview is the same bytes on every later request', () => {
    const layer = new LayerOne({ projectRoot: root, onSaveFailed: () => undefined });
    const messages = history();
    const first = layer.apply('s', SESSION, messages);
    const sent = first[2] as ToolMessage;
    expect(sent.results[0]!.content).toMatch(/^\[This tool result was 60,029 bytes \(2 lines\)/);
    expect(sent.results[1]!.content).toBe('tiny');
    expect(readFileSync(resultFile(root, SESSION, 'call_big'), 'utf8')).toBe(big);
    expect(messages[2]).toEqual(toolMessage(result('call_big', big), result('call_small', 'tiny'))); // the history keeps it whole
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'next' }], toolCalls: [] });
    const second = layer.apply('s', SESSION, messages);
    expect(second[2]).toBe(sent); // decided once: the very same message
    expect(second).toHaveLength(4);
  });

  test('a result whose file cannot be written is sent in full, reported, and saved on a later request', () => {
    const failures: string[] = [];
    const layer = new LayerOne({ projectRoot: root, onSaveFailed: (id, error) => failures.push(`${id}: ${error.message}`) });
    const dir = path.dirname(resultFile(root, SESSION, 'call_big'));
    mkdirSync(path.dirname(dir), { recursive: true });
    writeFileSync(dir, 'in the way'); // a file where the directory must go
    const messages = history();
    expect((layer.apply('s', SESSION, messages)[2] as ToolMessage).results[0]!.content).toBe(big);
    expect(failures).toEqual([expect.stringMatching(/^call_big: /)]);
    rmSync(dir);
    expect((layer.apply('s', SESSION, messages)[2] as ToolMessage).results[0]!.content).toMatch(/^\[This tool result was/);
  });

  test('a retry saves only what is still pending; a read of a saved file is never moved out again', () => {
    const failures: string[] = [];
    const layer = new LayerOne({ projectRoot: root, onSaveFailed: (id) => failures.push(id) });
    const bigToo = 'another\n' + 'w'.repeat(60_000);
    const messages: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [], toolCalls: [{ id: 'call_a', name: 'dump', input: '{}' }, { id: 'call_b/x', name: 'dump', input: '{}' }] },
      toolMessage(result('call_a', big), result('call_b/x', bigToo)),
    ];
    const blocked = resultFile(root, SESSION, 'call_b/x');
    mkdirSync(blocked, { recursive: true }); // a directory where B's file must go: B cannot be saved
    const first = layer.apply('s', SESSION, messages)[2] as ToolMessage;
    expect(first.results.map((r) => r.content.startsWith('[This tool result'))).toEqual([true, false]);
    expect(failures).toEqual(['call_b/x']);
    rmSync(resultFile(root, SESSION, 'call_a')); // were A saved again, it would reappear
    rmSync(blocked, { recursive: true });
    const second = layer.apply('s', SESSION, messages)[2] as ToolMessage;
    expect(second.results[0]!.content).toBe(first.results[0]!.content); // A's preview: the same bytes
    expect(second.results[1]!.content).toMatch(/^\[This tool result/);
    expect(existsSync(resultFile(root, SESSION, 'call_a'))).toBe(false);

    const savedPath = path.relative(root, resultFile(root, SESSION, 'call_a'));
    messages.push(
      { role: 'assistant', content: [], toolCalls: [{ id: 'call_read', name: 'read_file', input: JSON.stringify({ path: savedPath }) }] },
      toolMessage(result('call_read', big)),
    );
    expect((layer.apply('s', SESSION, messages)[4] as ToolMessage).results[0]!.content).toBe(big);
  });

  test('call ids that would share a file name get files of their own', () => {
    expect(resultFileName('functions.read:1')).not.toBe(resultFileName('functions_read_1'));
    expect(resultFileName('toolu_01AbC')).toBe('toolu_01AbC');
    expect(resultFileName('x'.repeat(300))).not.toBe(resultFileName(`${'x'.repeat(200)}y`));
  });

  test('a tool-results directory that is a link out of the project is never written through', () => {
    const outside = realpathSync(mkdtempSync(path.join(tmpdir(), 'mewcode-outside-')));
    try {
      const dir = path.dirname(resultFile(root, SESSION, 'call_big'));
      mkdirSync(path.dirname(dir), { recursive: true });
      symlinkSync(outside, dir);
      const failures: string[] = [];
      const layer = new LayerOne({ projectRoot: root, onSaveFailed: (_id, error) => failures.push(error.message) });
      expect((layer.apply('s', SESSION, history())[2] as ToolMessage).results[0]!.content).toBe(big);
      expect(failures[0]).toMatch(/tool-results is a symbolic link \(MewCode never follows one in its own directories\); results are written only inside the project$/);
      expect(existsSync(path.join(outside, 'call_big'))).toBe(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });
});

test('in a kernel: the model never receives the 60 KB result, only its preview, and the history keeps it', async () => {
  const dump: Tool = {
    name: 'dump',
    description: 'Prints a lot.',
    inputSchema: { type: 'object', properties: {} },
    readOnly: true,
    async execute() {
      return { content: `HEAD\n${'q'.repeat(60_000)}` };
    },
  };
  const model = memoryModel([useTools([call('dump')]), say('seen')]);
  const kernel = await Kernel.create({ plugins: [model.plugin, permissionMode, toolsPlugin([dump]), createCompactionPlugin()], projectRoot: root, homeDir: root, env: memoryEnv, reporter: new MemoryReporter() });
  await runPrompt(kernel, 'dump it');
  const sent = model.requests[1]!.messages[2] as ToolMessage;
  expect(sent.results[0]!.content).toMatch(/^\[This tool result was 60,005 bytes \(2 lines\), too large to keep in the conversation; it is saved in full to \.mewcode\/sessions\/.+\/tool-results\/call_\d+\.\]\n\[Read it with read_file in parts .* The first 2 lines \(2,048 bytes\) follow\.\]\nHEAD\nq+$/);
  expect((kernel.conversation.messages[2] as ToolMessage).results[0]!.content).toHaveLength(60_005);
});
