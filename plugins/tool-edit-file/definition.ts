/**
 * What the model sees of edit_file, known at boot without the implementation (which, with its
 * diff library, is imported on the first call: plugins/tool-edit-file/index.ts).
 */
import type { JsonSchema } from '../../types/tools.js';
import { fileToolInputCheck } from '../../sdk/file-tool-support/file-fields.js';
import { checkEditFileInput } from './input.js';

export const EDIT_FILE_DEFINITION = {
  name: 'edit_file',
  readOnly: false,
  category: 'write' as const,
  description: [
    'Edit a file by replacing an exact string: old_string must match the file character for character (indentation, tabs and spaces included) and, unless replace_all is true, exactly once.',
    'Read the file with read_file first (edits to a file not read in this session, or changed since, are refused), and copy old_string from that output without the line-number prefixes.',
    'Include enough surrounding lines in old_string to make it unique; set replace_all: true to change every occurrence (e.g. renaming a variable).',
    'Prefer this to write_file for changing existing files: only the matched text changes. The result shows a diff of the change. An empty old_string creates a new file.',
    'Relative paths are relative to the project root; ~ is the home directory.',
  ].join(' '),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The file to edit: relative to the project root, absolute, or starting with ~.' },
      old_string: { type: 'string', description: 'The exact text to replace, copied from the file (no line-number prefixes).' },
      new_string: { type: 'string', description: 'The text to put in its place (must differ from old_string; may be empty to delete).' },
      replace_all: { type: 'boolean', default: false, description: 'Replace every occurrence of old_string instead of requiring exactly one.' },
    },
    required: ['file_path', 'old_string', 'new_string'],
    additionalProperties: false,
  } as JsonSchema,
  validateInput: fileToolInputCheck(checkEditFileInput),
};
