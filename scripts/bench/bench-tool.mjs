// The external plugin the benchmark's sessions load from the project's `.mewcode.yaml`.
// `bench_echo` is read-only and instant, so a turn gap measures MewCode, not the tool.
// dispose() (called at shutdown) writes the process's peak RSS (KiB) to $MEWCODE_BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';

export default (api) =>
  api.definePlugin({
    name: 'bench-tool',
    kernel: '^0.1.0',
    bindings: new api.ContainerModule(({ bind }) =>
      bind(api.TOKENS.Tool).toConstantValue({
        name: 'bench_echo',
        description: 'Echo the given text back (benchmark tool).',
        inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo' } }, required: ['text'] },
        readOnly: true,
        async execute(input) {
          return { content: `echo: ${String(input.text ?? '')}` };
        },
      }),
    ),
    dispose() {
      const file = process.env.MEWCODE_BENCH_RSS_FILE;
      if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
    },
  });
