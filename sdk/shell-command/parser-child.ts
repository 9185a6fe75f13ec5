/**
 * The shell parser's own process (the build emits it as `dist/mewcode-shell-parser.js`; see
 * parser-process.ts for why it is a process). It answers `{ id, source }` messages with the plain
 * syntax tree of `source`, or the parser's error, and exits when MewCode goes away.
 */
import { bashParser, parseToSyntaxTree } from './syntax-tree.js';
import type { ParseReply, ParseRequest } from './parser-process.js';

const reply = (message: ParseReply): void => void process.send?.(message);

process.on('message', (request: ParseRequest) => {
  bashParser().then(
    (parser) => {
      try {
        reply({ id: request.id, tree: parseToSyntaxTree(parser, request.source) });
      } catch (error) {
        reply({ id: request.id, error: (error as Error).message });
      }
    },
    (error: unknown) => reply({ id: request.id, error: `the shell parser did not load: ${(error as Error).message}` }),
  );
});
process.on('disconnect', () => process.exit(0));
