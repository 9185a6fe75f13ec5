// g. The child side of the compaction benchmark: the built package (`mewcode`: Kernel,
// defaultPlugins) with a tool that returns 6 KB, one session, prompts of 20 tool calls each until
// 2,000 calls were made, against a provider entry with a small context window so the compaction
// plugin summarises again and again (layer 1, layer 2, the session file, all real). After each
// prompt it samples the RSS; it prints one JSON line: the samples, the peak (maxRSS), the runs'
// end reasons and how many compactions happened.
import { Kernel, MemoryReporter, defaultPlugins, pluginApi } from '../../dist/index.js';

const [prompts, callsPerPrompt, contextWindow] = process.argv.slice(2, 5).map((value) => Number.parseInt(value, 10));
const BLOB = 'The quick brown fox jumps over the lazy dog. '.repeat(6_000 / 45);
let calls = 0;
const tool = pluginApi.definePlugin({
  name: 'bench-blob',
  bindings: new pluginApi.ContainerModule(({ bind }) =>
    bind(pluginApi.TOKENS.Tool).toConstantValue({
      name: 'bench_blob',
      description: 'Return 6 KB of text (benchmark tool).',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      readOnly: true,
      async execute(input) {
        calls++;
        return { content: `blob ${String(input.n)}\n${BLOB}` };
      },
    }),
  ),
});
const sections = {
  provider: 'bench',
  providers: [{ name: 'bench', protocol: process.env.BENCH_PROTOCOL ?? 'anthropic', model: 'bench-model', api_key: 'k', base_url: process.env.BENCH_BASE_URL, context_window: contextWindow, max_tokens: 4096, retry_base_delay_ms: 1 }],
};
const kernel = await Kernel.create({
  plugins: [...defaultPlugins, tool],
  projectRoot: process.cwd(),
  homeDir: process.env.HOME,
  env: {},
  reporter: new MemoryReporter(),
  config: { layers: [], warnings: [], section: (key) => sections[key], locate: (p) => `bench:${p.length}` },
});
await kernel.startSession();
const runs = [];
const samples = [];
let compactions = 0;
for (let i = 0; i < prompts; i++) {
  let done;
  for await (const event of kernel.session.run({ prompt: `Step ${i + 1}: call bench_blob ${callsPerPrompt} times.`, mode: 'bypassPermissions' })) {
    if (event.type === 'done') done = event;
    if (event.type === 'compaction_end' && event.changed) compactions++;
  }
  runs.push(done?.reason);
  samples.push({ calls, rssMiB: process.memoryUsage().rss / 1_048_576, messages: kernel.session.conversation.messages.length });
}
await kernel.shutdown();
process.stdout.write(`${JSON.stringify({ runs, samples, calls, compactions, maxRssMiB: process.resourceUsage().maxRSS / 1024 })}\n`);
