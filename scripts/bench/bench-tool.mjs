// The external plugin the benchmark's sessions load from the project's `.mewcode.yaml`.
// `bench_echo` is read-only and instant, so a turn gap measures MewCode, not the tool.
// dispose() (called at shutdown) writes the process's peak RSS (KiB) to $MEWCODE_BENCH_RSS_FILE,
// and the in-process turn timings to $MEWCODE_BENCH_TURN_FILE:
//   kernelMs — assistant turn recorded → next request handed to the provider, minus the tool
//   sdkMs    — assistant turn recorded → the next HTTP request is created, minus the tool
//   clientMs — last byte of response 1 read by the client → the HTTP request 2 is created,
//              minus the tool: everything the client does between turns, the SDK's stream tail included
import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

export default (api) => {
  const marks = { recorded: undefined, bodyEnd: undefined, toolMs: 0, kernelMs: undefined, sdkMs: undefined, clientMs: undefined };
  // Both SDKs send through node:http (sdk/http/node-fetch.ts); Node's HTTP diagnostics channels
  // stamp when a request is created and when a response's last byte has been read.
  let responses = 0;
  diagnostics.subscribe('http.client.request.start', () => {
    const now = performance.now();
    if (marks.recorded !== undefined && marks.sdkMs === undefined) marks.sdkMs = now - marks.recorded - marks.toolMs;
    if (marks.bodyEnd !== undefined && marks.clientMs === undefined) marks.clientMs = now - marks.bodyEnd - marks.toolMs;
  });
  diagnostics.subscribe('http.client.response.finish', ({ response }) => {
    if (++responses === 1) response.once('end', () => (marks.bodyEnd = performance.now()));
  });
  return api.definePlugin({
    name: 'bench-tool',
    kernel: '^0.2.0',
    bindings: new api.ContainerModule(({ bind }) =>
      bind(api.TOKENS.Tool).toConstantValue({
        name: 'bench_echo',
        description: 'Echo the given text back (benchmark tool).',
        inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo' } }, required: ['text'] },
        readOnly: true,
        async execute(input) {
          const started = performance.now();
          const content = `echo: ${String(input.text ?? '')}`;
          marks.toolMs += performance.now() - started;
          return { content };
        },
      }),
    ),
    apply(kernel) {
      kernel.hooks.messageAppended.tapPromise('bench-tool', async (message) => {
        if (message.role === 'assistant' && message.toolCalls.length > 0 && marks.recorded === undefined) marks.recorded = performance.now();
      });
      // Tapped last (high stage), so every other preModelRequest tap is inside the measurement.
      kernel.hooks.preModelRequest.tapPromise({ name: 'bench-tool', stage: 1000 }, async (request) => {
        if (marks.recorded !== undefined && marks.kernelMs === undefined) marks.kernelMs = performance.now() - marks.recorded - marks.toolMs;
        return request;
      });
    },
    dispose() {
      const file = process.env.MEWCODE_BENCH_RSS_FILE;
      if (file) writeFileSync(file, String(process.resourceUsage().maxRSS));
      const turnFile = process.env.MEWCODE_BENCH_TURN_FILE;
      if (turnFile) writeFileSync(turnFile, JSON.stringify({ kernelMs: marks.kernelMs, sdkMs: marks.sdkMs, clientMs: marks.clientMs }));
    },
  });
};
