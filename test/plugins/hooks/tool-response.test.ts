/**
 * PostToolUse's `tool_response` in Claude Code's shapes for Read, Glob and Grep, made from what
 * the tools themselves returned (run here for real): never more of a file than the result held,
 * and a fact the result does not tell (a file's total length past the lines read) left out.
 */
import { afterEach, expect, test } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { realpathSync } from 'node:fs';
import { FileReadTrackerImpl } from '../../../kernel/file-read-tracker.js';
import { toolResponse } from '../../../plugins/hooks/tool-response.js';
import { GlobTool } from '../../../plugins/tool-glob/glob-tool.js';
import { GrepTool } from '../../../plugins/tool-grep/grep-tool.js';
import { ReadFileTool } from '../../../plugins/tool-read-file/read-file-tool.js';
import type { ToolResult } from '../../../types/messages.js';
import type { ToolInput } from '../../../types/tools.js';
import { removeTempDirs, temp } from '../../support/temp-dirs.js';
import { testLimits, toolContext } from '../tool-grep/helpers.js';

afterEach(removeTempDirs);

function project(): string {
  const root = temp('mewcode-tool-response-');
  mkdirSync(path.join(root, 'src'));
  writeFileSync(path.join(root, 'src', 'a.ts'), 'const a = 1;\n// TODO one\nexport { a };\n');
  writeFileSync(path.join(root, 'src', 'b.ts'), '// TODO two\n// TODO three\n');
  writeFileSync(path.join(root, 'long.txt'), Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n') + '\n');
  writeFileSync(path.join(root, 'empty.txt'), '');
  return realpathSync(root);
}

/** The real tools, run in `root` as the kernel runs them; the result as postToolUse sees it. */
function createKernelForTools(root: string) {
  const tools = { read_file: new ReadFileTool(testLimits(root), new FileReadTrackerImpl()), glob: new GlobTool(testLimits(root)), grep: new GrepTool(testLimits(root), { engine: 're2js' }) };
  return {
    run: async (name: keyof typeof tools, input: ToolInput): Promise<{ result: ToolResult; durationMs: number }> => {
      const output = await tools[name].execute(input, toolContext(root));
      return { result: { toolCallId: 'call_1', content: output.content, isError: output.isError === true }, durationMs: 5 };
    },
    close: async () => undefined,
  };
}

test('Read: {type: "text", file: {filePath, content, numLines, startLine, totalLines}} with the lines the tool returned, unnumbered', async () => {
  const root = project();
  const tools = createKernelForTools(root);
  try {
    const whole = await tools.run('read_file', { file_path: 'src/a.ts' });
    const response = toolResponse('read_file', { file_path: path.join(root, 'src/a.ts') }, whole.result, whole.durationMs);
    expect(response).toMatchObject({ output: whole.result.content, is_error: false, type: 'text', file: { filePath: path.join(root, 'src/a.ts'), content: 'const a = 1;\n// TODO one\nexport { a };', numLines: 3, startLine: 1, totalLines: 3 } });

    // A window of the file: only its lines; the total is not known from the result, so it is left out.
    const window = await tools.run('read_file', { file_path: 'long.txt', offset: 10, limit: 3 });
    const part = toolResponse('read_file', { file_path: path.join(root, 'long.txt') }, window.result, window.durationMs) as { file: Record<string, unknown> };
    expect(part.file).toEqual({ filePath: path.join(root, 'long.txt'), content: 'line 10\nline 11\nline 12', numLines: 3, startLine: 10 });

    const empty = await tools.run('read_file', { file_path: 'empty.txt' });
    expect(toolResponse('read_file', { file_path: path.join(root, 'empty.txt') }, empty.result, empty.durationMs)).toMatchObject({ type: 'text', file: { content: '', numLines: 0, startLine: 1, totalLines: 0 } });
  } finally {
    await tools.close();
  }
});

test('Glob: {filenames, durationMs, numFiles, truncated} from the listed paths, the notes left out', async () => {
  const root = project();
  const tools = createKernelForTools(root);
  try {
    const found = await tools.run('glob', { pattern: 'src/*.ts' });
    const response = toolResponse('glob', { pattern: 'src/*.ts' }, found.result, 12.6);
    expect(response).toMatchObject({ output: found.result.content, filenames: expect.arrayContaining(['src/a.ts', 'src/b.ts']), numFiles: 2, truncated: false, durationMs: 13 });
    expect((response.filenames as string[]).length).toBe(2);
    const none = await tools.run('glob', { pattern: '**/*.py' });
    expect(toolResponse('glob', { pattern: '**/*.py' }, none.result, 1)).toMatchObject({ filenames: [], numFiles: 0, truncated: false });
  } finally {
    await tools.close();
  }
});

test('Glob: a list the tool cut short is truncated', () => {
  const content = 'a.ts\nb.ts\n[… 3 more matching files not shown (showing the 2 most recently modified of 5); narrow the pattern or path]';
  expect(toolResponse('glob', { pattern: '*.ts' }, { toolCallId: 'x', content, isError: false }, 1)).toMatchObject({ filenames: ['a.ts', 'b.ts'], numFiles: 2, truncated: true });
});

test('Grep: {mode, filenames, numFiles} and, in content and count modes, content and numLines', async () => {
  const root = project();
  const tools = createKernelForTools(root);
  try {
    const files = await tools.run('grep', { pattern: 'TODO', output_mode: 'files_with_matches' });
    expect(toolResponse('grep', { pattern: 'TODO', output_mode: 'files_with_matches' }, files.result, 1)).toEqual({ output: files.result.content, is_error: false, mode: 'files_with_matches', filenames: ['src/a.ts', 'src/b.ts'], numFiles: 2 });

    const content = await tools.run('grep', { pattern: 'TODO', output_mode: 'content' });
    const shown = toolResponse('grep', { pattern: 'TODO', output_mode: 'content' }, content.result, 1);
    expect(shown).toMatchObject({ mode: 'content', filenames: ['src/a.ts', 'src/b.ts'], numFiles: 2, numLines: 3 });
    expect(shown.content).toBe(content.result.content);

    // MewCode's grep defaults to content mode: the mode is the one that ran.
    const fallback = await tools.run('grep', { pattern: 'TODO' });
    expect(toolResponse('grep', { pattern: 'TODO' }, fallback.result, 1)).toMatchObject({ mode: 'content', numFiles: 2 });

    const counted = await tools.run('grep', { pattern: 'TODO', output_mode: 'count' });
    expect(toolResponse('grep', { pattern: 'TODO', output_mode: 'count' }, counted.result, 1)).toMatchObject({ mode: 'count', filenames: ['src/a.ts', 'src/b.ts'], numFiles: 2, numLines: 2, numMatches: 3 });

    const none = await tools.run('grep', { pattern: 'NOTHING_LIKE_THIS', output_mode: 'files_with_matches' });
    expect(toolResponse('grep', { pattern: 'NOTHING_LIKE_THIS', output_mode: 'files_with_matches' }, none.result, 1)).toMatchObject({ mode: 'files_with_matches', filenames: [], numFiles: 0 });
  } finally {
    await tools.close();
  }
});
