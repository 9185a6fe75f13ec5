import { bashParser, parseToSyntaxTree, type SyntaxNode } from '../../sdk/shell-command/syntax-tree.js';
test('tree', async () => {
  const p = await bashParser();
  const dump = (n: SyntaxNode, d = 0): string => `${'  '.repeat(d)}${n.type}${n.field ? `(${n.field})` : ''}\n${n.children.map((c) => dump(c, d + 1)).join('')}`;
  for (const src of (process.env.SRC ?? '').split('@@')) console.log(dump(parseToSyntaxTree(p, src)));
});
