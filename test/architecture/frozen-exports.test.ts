/**
 * What the kernel shares with plugins cannot be changed by one of them. Every plugin gets the same
 * objects: `pluginApi` (an external plugin's factory argument), the exports of `mewcode/sdk`
 * (sdk/index.ts), of `mewcode` (index.ts) and of types/. A table among them that one plugin could
 * write to (`api.TOKENS.CommandSandbox = …`, `PermissionStage.Sandbox = -Infinity`) changes what
 * the kernel and every other plugin read: the identifier a service is got by, the stage that ends
 * the permission chain. So each plain object and array they reach, all the way down, is frozen
 * when its module is evaluated. Functions and classes are fine (their code is not data; what a
 * class's static property holds is still walked).
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Properties every function has, or that a class's machinery owns: nothing a plugin shares as data. */
const FUNCTION_OWN = new Set<PropertyKey>(['length', 'name', 'prototype', 'arguments', 'caller']);

/**
 * Objects whose state lives in internal slots, which freezing does not reach: `RegExp.prototype
 * .compile` changes a frozen pattern, `Map.prototype.set` a frozen map. None may be shared.
 */
const SLOTTED: ReadonlyArray<readonly [string, (value: object) => boolean]> = [
  ['a RegExp (compile changes its pattern, frozen or not)', (value) => value instanceof RegExp],
  ['a Map (set changes it, frozen or not)', (value) => value instanceof Map],
  ['a Set (add changes it, frozen or not)', (value) => value instanceof Set],
  ['a WeakMap (set changes it, frozen or not)', (value) => value instanceof WeakMap],
  ['a WeakSet (add changes it, frozen or not)', (value) => value instanceof WeakSet],
  ['a Date (setTime changes it, frozen or not)', (value) => value instanceof Date],
  ['binary data (its bytes stay writable, frozen or not)', (value) => ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof SharedArrayBuffer],
];

/**
 * Where each reachable object or array that can be changed is, by path from its export: one not
 * frozen, or one whose contents freezing does not cover. Data properties are followed (a getter is
 * not called: it makes its value at each read); functions are not data, but their own properties
 * are (a class's static table is shared like any export).
 */
function unfrozen(roots: Record<string, unknown>): string[] {
  const seen = new Set<unknown>();
  const found: string[] = [];
  const walk = (value: unknown, where: string): void => {
    if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return;
    if (seen.has(value)) return;
    seen.add(value);
    if (typeof value === 'object') {
      if (!Object.isFrozen(value)) found.push(where);
      for (const [kind, is] of SLOTTED) if (is(value)) found.push(`${where} is ${kind}`);
    }
    for (const key of Reflect.ownKeys(value)) {
      if (typeof value === 'function' && FUNCTION_OWN.has(key)) continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key)!;
      if ('value' in descriptor) walk(descriptor.value, `${where}.${String(key)}`);
    }
  };
  for (const [name, value] of Object.entries(roots)) walk(value, name);
  return found;
}

async function exportsOf(file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(path.join(ROOT, file)).href)) as Record<string, unknown>;
}

test('pluginApi, the object every external factory is handed, is frozen all the way down', async () => {
  const { pluginApi } = await exportsOf('kernel/plugin-api.ts');
  expect(unfrozen({ pluginApi })).toEqual([]);
});

test.each(['sdk/index.ts', 'index.ts', ...readdirSync(path.join(ROOT, 'types')).filter((f) => f.endsWith('.ts')).map((f) => `types/${f}`)])(
  'every export of %s is frozen all the way down',
  async (file) => {
    const module = await exportsOf(file);
    expect(unfrozen(module)).toEqual([]);
  },
);

/**
 * Functions and classes too, for the entries a plugin imports: a plugin that patched
 * `LinearRegExp.prototype.test` made a managed deny stop matching for every plugin. Each exported
 * function or class, its prototype, the methods and accessors on it and its statics are frozen,
 * up to JavaScript's own built-ins (types/harden-exports.ts); inversify's ContainerModule, which
 * `mewcode/sdk` and `pluginApi` re-export, included.
 */
function unhardened(roots: Record<string, unknown>): string[] {
  const seen = new Set<unknown>();
  const found: string[] = [];
  // JavaScript's own constructors and prototypes (the globals' and the hidden function kinds'): the process's, not MewCode's.
  const builtIns = new Set<unknown>([Object.prototype, Function.prototype]);
  for (const name of Object.getOwnPropertyNames(globalThis)) {
    const global = (globalThis as Record<string, unknown>)[name];
    if (typeof global === 'function') builtIns.add(global).add(global.prototype);
  }
  for (const kind of [async function () {}, function* () {}, async function* () {}]) {
    const prototype = Object.getPrototypeOf(kind) as { constructor: unknown; prototype?: object };
    builtIns.add(prototype).add(prototype.constructor);
    for (let p: object | null | undefined = prototype.prototype; p; p = Object.getPrototypeOf(p)) builtIns.add(p);
  }
  const walk = (value: unknown, where: string, depth: number): void => {
    if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value) || builtIns.has(value) || depth > 6) return;
    seen.add(value);
    if (!Object.isFrozen(value)) found.push(where);
    for (const key of Reflect.ownKeys(value)) {
      const descriptor = Reflect.getOwnPropertyDescriptor(value, key)!;
      if ('value' in descriptor) walk(descriptor.value, `${where}.${String(key)}`, depth + 1);
      else for (const accessor of [descriptor.get, descriptor.set]) walk(accessor, `${where}.${String(key)}(accessor)`, depth + 1);
    }
    if (typeof value === 'function') walk(Object.getPrototypeOf(value), `${where}(extends)`, depth + 1);
  };
  for (const [name, value] of Object.entries(roots)) walk(value, name, 0);
  return found;
}

test.each(['sdk/hardened.ts', 'entry.ts'])('every class and function %s (the bundle\'s entry) exports is frozen, with its prototype and statics', async (file) => {
  expect(unhardened(await exportsOf(file))).toEqual([]);
});

test("pluginApi's classes and functions are frozen too; patching one throws and changes nothing", async () => {
  const { pluginApi } = (await exportsOf('kernel/plugin-api.ts')) as { pluginApi: Record<string, unknown> };
  expect(unhardened(pluginApi)).toEqual([]);
  const { LinearRegExp } = (await exportsOf('sdk/hardened.ts')) as { LinearRegExp: { prototype: { test: unknown } } };
  expect(() => {
    LinearRegExp.prototype.test = () => false;
  }).toThrow(TypeError);
  const { ContainerModule } = pluginApi as { ContainerModule: { prototype: { load: unknown } } };
  expect(() => {
    ContainerModule.prototype.load = () => undefined;
  }).toThrow(TypeError);
});
