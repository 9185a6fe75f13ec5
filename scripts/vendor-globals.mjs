// Injected into the bundle (scripts/bundle.mjs, esbuild `inject`): free references to `Headers` and
// `FormData` (the model and MCP SDKs have them; MewCode's own code has none) resolve here instead
// of to Node's globals, because touching either global makes Node initialise its bundled undici,
// web streams, http2, zlib and WebCrypto (≈ 25 ms before the first request), which MewCode's own
// fetch (sdk/http/node-fetch.ts) does not need. `npm run check-deps` runs both SDKs on them.
export { WebHeaders as Headers } from '../sdk/http/web-headers.ts';

/**
 * The SDKs test `body instanceof FormData` on every request. Only a value whose tag says it is
 * a FormData is handed to the real class, so the common case never loads undici; building one
 * (file uploads) makes the real thing.
 */
export const FormData = new Proxy(function FormData() {}, {
  construct: (_target, args) => Reflect.construct(globalThis.FormData, args),
  get: (target, key) => (key === Symbol.hasInstance ? isFormData : Reflect.get(target, key)),
});

/**
 * The SDKs also test `globalThis.ReadableStream` before each request (a stream body?): reading that
 * global loads Node's web streams (≈ 3 ms before the first request). The bundle reads this
 * stand-in instead (scripts/bundle.mjs `define`); building a stream makes the real one.
 */
export const __mewcodeReadableStream = new Proxy(function ReadableStream() {}, {
  construct: (_target, args) => Reflect.construct(realReadableStream(), args),
  get: (_target, key) => (key === Symbol.hasInstance ? isReadableStream : Reflect.get(realReadableStream(), key)),
});

/** Read with Reflect.get: the bundle's `define` rewrites every `globalThis.ReadableStream`, this file's too. */
function realReadableStream() {
  return Reflect.get(globalThis, 'ReadableStream');
}

function isReadableStream(value) {
  return Object.prototype.toString.call(value) === '[object ReadableStream]' && value instanceof realReadableStream();
}

function isFormData(value) {
  return Object.prototype.toString.call(value) === '[object FormData]' && value instanceof globalThis.FormData;
}
