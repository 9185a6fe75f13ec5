/**
 * A service as the container hands it out when it guards a run (the OS sandbox, the permission
 * rules and their settings): its methods read once and bound to the real object, its data read
 * through, and nothing assignable. A plugin that resolves it can call it but cannot replace
 * `wrap` or `additionalDirectories` for every later caller. (Patching a class's prototype is
 * monkey-patching the process, which no API closes.)
 */
export function sealedService<T extends object>(service: T): T {
  const methods = new Map<PropertyKey, unknown>();
  for (let proto: object | null = service; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || methods.has(key)) continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(proto, key);
      if (descriptor && typeof descriptor.value === 'function') methods.set(key, (descriptor.value as (...args: unknown[]) => unknown).bind(service));
    }
  }
  const refuse = (key: PropertyKey): never => {
    throw new TypeError(`a guarding service cannot be changed ("${String(key)}")`);
  };
  return new Proxy(service, {
    get: (target, key) => (methods.has(key) ? methods.get(key) : Reflect.get(target, key, target)),
    set: (_target, key) => refuse(key),
    defineProperty: (_target, key) => refuse(key),
    deleteProperty: (_target, key) => refuse(key),
    setPrototypeOf: () => refuse('prototype'),
  });
}
