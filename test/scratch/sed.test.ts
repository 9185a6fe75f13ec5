import { sedExecutes } from '../../sdk/shell-command/tool-runners.js';
test('s', () => { for (const x of ['e', '/x/e rm y', 's/a/b/gpe', 's/e/E/g', '/e/{s//E/;p}', 'a\\\ne', ':e;n;be', 's/a/b/w e.txt', 'K']) console.log(JSON.stringify(x), sedExecutes(x)); });
