/**
 * Freezes what a module shares with plugins, functions and classes included: each exported function
 * or class, its prototype, every method and accessor on it, its static members, and the classes it
 * extends up to the first built-in. Every plugin gets the same `LinearRegExp`, `ProviderError` or
 * `ContainerModule` the kernel and the permission layers use: a plugin that set
 * `LinearRegExp.prototype.test = () => false` made a managed `Bash(rm *)` deny stop matching for
 * everyone. JavaScript's own built-ins (`RegExp.prototype`, `Error.prototype`) are the process's
 * and are left alone (patching them is monkey-patching Node, which no API closes).
 */

/** The constructors and prototypes of the JavaScript and Node globals (and the hidden function kinds): where a walk stops. */
let intrinsics: Set<unknown> | undefined;
function isBuiltIn(value: object): boolean {
  if (!intrinsics) {
    const found = new Set<unknown>([Object.prototype, Function.prototype]);
    const add = (constructor: unknown): void => {
      if (typeof constructor !== 'function') return;
      found.add(constructor);
      found.add((constructor as { prototype?: unknown }).prototype);
    };
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      const descriptor = Object.getOwnPropertyDescriptor(globalThis, name);
      if (descriptor && 'value' in descriptor) add(descriptor.value);
    }
    for (const kind of [async function () {}, function* () {}, async function* () {}]) {
      add(Object.getPrototypeOf(kind).constructor);
      found.add(Object.getPrototypeOf(kind));
      const instances = Object.getPrototypeOf(kind).prototype as object | undefined;
      for (let p: object | null | undefined = instances; p; p = Object.getPrototypeOf(p)) found.add(p);
    }
    intrinsics = found;
  }
  return intrinsics.has(value);
}

export function hardenValue(value: unknown, seen: Set<unknown> = new Set()): void {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null || seen.has(value)) return;
  seen.add(value);
  if (isBuiltIn(value)) return;
  // Walk first, then freeze: a frozen object's members are still reached through their descriptors.
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Reflect.getOwnPropertyDescriptor(value, key);
    if (!descriptor) continue;
    if ('value' in descriptor) hardenValue(descriptor.value, seen);
    else {
      hardenValue(descriptor.get, seen);
      hardenValue(descriptor.set, seen);
    }
  }
  // The class it extends (statics) and its prototype's parent (inherited methods), up to a built-in.
  hardenValue(Object.getPrototypeOf(value), seen);
  Object.freeze(value);
}

/** Every export of a module namespace, hardened (see above). */
export function hardenExports(namespace: Record<string, unknown>): void {
  const seen = new Set<unknown>();
  for (const key of Object.keys(namespace)) hardenValue(namespace[key], seen);
}
Object.freeze(hardenValue);
Object.freeze(hardenExports);
