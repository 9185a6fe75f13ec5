// Writes `<file>.cache`: V8's code cache for a CommonJS vendor file, made by loading it exactly
// as sdk/vendor-module.ts does, under Node's default V8 flags: a cache is only accepted under the
// flags it was made with, and the CLI changes none before it loads an SDK
// (test/cli/vendor-code-cache.test.ts).
//
// V8 compiles a function on its first call, and a cache made after running code holds what ran.
// So a model SDK's client is built and one streamed request is made through it, answered by a
// stand-in fetch: the CLI's first request then runs SDK code that is already compiled.
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const file = path.resolve(process.argv[2]);
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file });
const loaded = { exports: {} };
script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));

/** One short streamed answer per protocol, in the vendors' documented event shapes. */
const REHEARSALS = {
  'anthropic-sdk.cjs': {
    events: [
      ['message_start', { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'm', content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 1 } } }],
      ['content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }],
      ['content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } }],
      ['content_block_stop', { type: 'content_block_stop', index: 0 }],
      ['message_delta', { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } }],
      ['message_stop', { type: 'message_stop' }],
    ],
    request: (client) => client.messages.create({ model: 'm', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], stream: true }),
  },
  'openai-sdk.cjs': {
    events: [
      [undefined, { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] }],
      [undefined, { id: 'c1', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }],
      [undefined, '[DONE]'],
    ],
    request: (client) => client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true }),
  },
};

function streamedAnswer(events) {
  const text = events.map(([event, data]) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`).join('');
  return async () => new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream', 'request-id': 'code-cache' } });
}

async function rehearse() {
  const Client = loaded.exports.default;
  const rehearsal = REHEARSALS[path.basename(file)];
  if (typeof Client !== 'function') return;
  if (!rehearsal) {
    new Client({ apiKey: 'code-cache' }); // compiles what building a client needs
    return;
  }
  const client = new Client({ apiKey: 'code-cache', baseURL: 'http://127.0.0.1:9/v1', maxRetries: 0, fetch: streamedAnswer(rehearsal.events) });
  let events = 0;
  for await (const event of await rehearsal.request(client)) if (event) events++;
  if (events === 0) throw new Error('it streamed no events');
}

// A rehearsal that fails (an SDK release changed its surface) only makes the cache colder: said
// loudly, and the cache of what did run is written all the same.
rehearse()
  .catch((error) => process.stderr.write(`code-cache: warning: the rehearsed request of ${path.basename(file)} failed, so its cache holds less: ${error.stack ?? error}\n`))
  .then(() => fs.writeFileSync(`${file}.cache`, script.createCachedData()));
