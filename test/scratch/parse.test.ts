import { parseShellCommand } from '../../sdk/shell-command/index.js';
test('parse', async () => {
  for (const src of (process.env.SRC ?? '').split('@@')) {
    const p = await parseShellCommand(src);
    console.log(JSON.stringify({ src, opaque: p.opaque, parseError: p.parseError, segs: p.segments.map((s) => [s.argv, s.unknownCommands]) }));
  }
});
