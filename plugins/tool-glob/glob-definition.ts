/** What the model sees of `glob`: loaded at boot, without the implementation (see index.ts). */
import type { JsonSchema } from '../../types/tools.js';

export const GLOB_DESCRIPTION = [
  'Find files by path pattern. Returns up to 100 file paths, relative to the project root, most recently modified first.',
  'The pattern is matched against each file\'s path relative to `path` (default: the project root): `*` and `?` match within one name, `**` matches any number of directories, `{ts,tsx}` alternatives, `[abc]` character classes.',
  'So "*.ts" matches only files directly in `path`, while "**/*.ts" matches at any depth and "src/**/*.test.ts" only under src/.',
  'Hidden directories (names starting with ".") and files ignored by .gitignore, .ignore or .rgignore are skipped; directories themselves are not listed.',
  'To search file contents, use grep.',
].join(' ');

export const GLOB_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    pattern: { type: 'string', description: 'Glob pattern, e.g. "**/*.ts", "src/**/*.{js,jsx}", "*.md".' },
    path: { type: 'string', description: 'Directory to search from, relative to the project root. Default: the project root.' },
  },
  required: ['pattern'],
};
