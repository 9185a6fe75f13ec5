// Writes `<file>.cache`: V8's code cache for a CommonJS vendor file, made by loading it exactly
// as sdk/vendor-module.ts does, under Node's default V8 flags: a cache is only accepted under the
// flags it was made with, and the CLI changes none before it loads an SDK
// (test/cli/vendor-code-cache.test.ts).
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

const file = path.resolve(process.argv[2]);
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file });
const loaded = { exports: {} };
script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
// Constructing a client compiles the functions every request needs, so they are cached too.
const Client = loaded.exports.default;
if (typeof Client === 'function') new Client({ apiKey: 'code-cache' });
fs.writeFileSync(`${file}.cache`, script.createCachedData());
