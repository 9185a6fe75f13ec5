// The stack floor for bench b: a Node program that loads only what MewCode's stack requires before
// a first request — reflect-metadata, an inversify container, a tapable hook, the provider's SDK
// client as MewCode builds it (provider-anthropic/vendor.ts, or the openai client), sending
// through MewCode's node:http fetch (sdk/http/node-fetch.ts) — and streams one request. Bundled by
// esbuild with the CLI's own output options (scripts/esm-output.mjs), so
// `mewcode -p hi` minus this floor is MewCode's own start-up work: configuration, trust, plugins,
// session, git status, system prompt.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESM_OUTPUT } from '../esm-output.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const COMMON = `
import 'reflect-metadata';
import { Container } from 'inversify';
import { AsyncSeriesWaterfallHook } from 'tapable';
import { sharedNodeFetch } from './sdk/http/node-fetch.ts';
const container = new Container();
container.bind('hook').toConstantValue(new AsyncSeriesWaterfallHook(['prompt']));
const hook = container.get('hook');
hook.tapPromise('floor', async (prompt) => prompt);
const prompt = await hook.promise('hi');
const url = process.argv[2];
`;

const ENTRIES = {
  anthropic: `${COMMON}
import { Anthropic } from './plugins/provider-anthropic/vendor.ts';
const client = new Anthropic({ apiKey: 'bench-key', baseURL: url, maxRetries: 0, fetch: sharedNodeFetch(), openTelemetry: false });
const stream = await client.messages.create({ model: 'bench-model', max_tokens: 64, stream: true, messages: [{ role: 'user', content: prompt }] });
for await (const event of stream) void event;
`,
  openai: `${COMMON}
import OpenAI from 'openai';
const client = new OpenAI({ apiKey: 'bench-key', baseURL: url + '/v1', maxRetries: 0, fetch: sharedNodeFetch() });
const stream = await client.chat.completions.create({ model: 'bench-model', stream: true, messages: [{ role: 'user', content: prompt }] });
for await (const chunk of stream) void chunk;
`,
};

/** Bundles the floor program for `protocol` into `dir`; returns the file to run as `node FILE SERVER_URL`. */
export async function buildStackFloor(protocol, dir) {
  const { build } = await import('esbuild');
  mkdirSync(dir, { recursive: true });
  const outfile = path.join(dir, `stack-floor-${protocol}.mjs`);
  await build({
    ...ESM_OUTPUT,
    stdin: { contents: ENTRIES[protocol], resolveDir: ROOT, loader: 'ts', sourcefile: `stack-floor-${protocol}.ts` },
    outfile,
  });
  return outfile;
}
