// The demo's external plugin: MewCode loads it because the demo project's .mewcode.yaml lists it
//   plugins: ["./word-count.mjs"]
// It contributes one read-only tool, `word_count`, that counts the words, lines and characters of a
// file inside the project. A plugin is a factory that receives the kernel's plugin API.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export default (api) =>
  api.definePlugin({
    name: 'demo-word-count',
    version: '1.0.0',
    kernel: '^0.2.0',
    bindings: new api.ContainerModule(({ bind }) =>
      bind(api.TOKENS.Tool).toConstantValue({
        name: 'word_count',
        description: 'Count the words, lines and characters of a text file in the project.',
        inputSchema: {
          type: 'object',
          properties: { path: { type: 'string', description: 'File path, relative to the project root' } },
          required: ['path'],
          additionalProperties: false,
        },
        readOnly: true,
        permissionTarget: (input) => ({ kind: 'path', path: String(input.path ?? '') }),
        async execute(input, ctx) {
          const relative = String(input.path ?? '');
          const file = path.resolve(ctx.projectRoot, relative);
          const inside = path.relative(ctx.projectRoot, file);
          // Only a first component that is exactly `..` leads out: `..notes/a.md` is a file inside.
          const outside = inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside);
          if (!relative || outside) {
            return { content: `word_count: "${relative}" is not a file inside the project; pass a path relative to ${ctx.projectRoot}.`, isError: true };
          }
          let text;
          try {
            text = await readFile(file, 'utf8');
          } catch (error) {
            return { content: `word_count: cannot read ${relative} (${error.code ?? error.message}); check the path.`, isError: true };
          }
          const words = text.split(/\s+/).filter(Boolean).length;
          const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
          return { content: `${relative}: ${words} words, ${lines} lines, ${text.length} characters` };
        },
      }),
    ),
  });
