/** What the model sees of write_file, known at boot without the implementation (imported on the first call). */
import type { JsonSchema } from '../../types/tools.js';
import { fileToolInputCheck } from '../../sdk/file-tool-support/file-fields.js';
import { checkWriteFileInput } from './input.js';

export const WRITE_FILE_DEFINITION = {
  name: 'write_file',
  readOnly: false,
  category: 'write' as const,
  description: [
    'Write a file: create a new file, or replace the whole content of an existing one. Parent directories are created as needed; an existing file keeps its permissions.',
    'To change part of an existing file, use edit_file instead: it is cheaper and cannot lose the parts you did not mean to touch.',
    'An existing file must have been read with read_file in this session (and not changed since) before it can be overwritten; otherwise the call is refused.',
    'content is written exactly as given (UTF-8, no line-number prefixes). Relative paths are relative to the project root; ~ is the home directory.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The file to write: relative to the project root, absolute, or starting with ~.' },
      content: { type: 'string', description: 'The complete content of the file.' },
    },
    required: ['file_path', 'content'],
    additionalProperties: false,
  } as JsonSchema,
  validateInput: fileToolInputCheck(checkWriteFileInput),
};
