// Writes `<file>.cache`: V8's code cache for a CommonJS vendor file, made by loading it exactly
// as kernel/vendor-module.ts does, after the same V8 flag change as bin/cli.ts (a cache is only
// accepted under the flags it was made with).
const v8 = require('node:v8');
const vm = require('node:vm');
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');

v8.setFlagsFromString('--liftoff-only'); // keep in step with bin/cli.ts
const file = path.resolve(process.argv[2]);
const script = new vm.Script(Module.wrap(fs.readFileSync(file, 'utf8')), { filename: file });
const loaded = { exports: {} };
script.runInThisContext().call(loaded.exports, loaded.exports, Module.createRequire(file), loaded, file, path.dirname(file));
// Constructing a client compiles the functions every request needs, so they are cached too.
const Client = loaded.exports.default;
if (typeof Client === 'function') new Client({ apiKey: 'code-cache' });
fs.writeFileSync(`${file}.cache`, script.createCachedData());
