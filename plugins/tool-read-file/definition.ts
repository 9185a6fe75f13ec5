/** What the model sees of read_file, from the caps in OutputLimits; known at boot without the implementation. */
import type { OutputLimits } from '../../types/services.js';
import type { JsonSchema, ToolInputCheck, ToolInput } from '../../types/tools.js';
import { fileToolInputCheck } from '../../sdk/file-tool-support/file-fields.js';
import { checkReadFileInput } from './input.js';

export function readFileDefinition(limits: OutputLimits): { name: 'read_file'; readOnly: true; category: 'read'; description: string; inputSchema: JsonSchema; validateInput(input: ToolInput): ToolInputCheck } {
  const { readMaxLines: lines, readMaxBytes: bytes, readLineMaxChars: chars } = limits;
  return {
    name: 'read_file',
    readOnly: true,
    category: 'read',
    description: [
      `Read a text file. Returns its lines numbered like \`cat -n\` (line number, tab, text), at most ${lines} lines and ${bytes / 1024} KiB per call; lines longer than ${chars} characters are cut.`,
      `For a large file, read a part with offset (1-based first line) and limit (number of lines); when more lines follow, the output ends with the exact offset to continue from.`,
      `Always read a file before changing it: edit_file and write_file refuse to change an existing file that was not read in this session. The line-number prefix is not part of the file: never copy it into edit_file's old_string.`,
      `Do not use it to list a directory (use glob, or bash ls) or to search for text (use grep). Binary files are not shown.`,
      `Relative paths are relative to the project root; ~ is the home directory.`,
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'The file to read: relative to the project root, absolute, or starting with ~.' },
        offset: { type: 'integer', minimum: 1, description: 'The line number to start from (1 = first line). Default 1.' },
        limit: { type: 'integer', minimum: 1, maximum: lines, description: `How many lines to read. Default and maximum ${lines}.` },
      },
      required: ['file_path'],
      additionalProperties: false,
    },
    validateInput: fileToolInputCheck((input) => checkReadFileInput(input, lines)),
  };
}
