/**
 * A service as the container hands it out when it guards a run (the OS sandbox, the permission
 * rules and their settings): a frozen object of its methods, each bound to the real object, and
 * its data as read-only copies read at each access. A plugin that resolves it can call it but
 * cannot replace `wrap` or `additionalDirectories` for every later caller, nor reach the object
 * behind it: a field the service keeps (its options, its settings) comes back as a frozen copy, or
 * not at all when it is no plain data (a callback). (Patching a class's prototype is
 * monkey-patching the process, which no API closes.)
 */
import { deepFreeze } from './deep-freeze.js';

export function sealedService<T extends object>(service: T): T {
  const view: Record<PropertyKey, unknown> = {};
  for (let proto: object | null = service; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === 'constructor' || Object.prototype.hasOwnProperty.call(view, key)) continue;
      const descriptor = Reflect.getOwnPropertyDescriptor(proto, key)!;
      if (typeof descriptor.value === 'function') {
        view[key] = (descriptor.value as (...args: unknown[]) => unknown).bind(service);
      } else {
        Object.defineProperty(view, key, { enumerable: descriptor.enumerable ?? true, get: () => readOnlyCopy(Reflect.get(service, key, service)) });
      }
    }
  }
  return Object.freeze(view) as T;
}

/** What a field reads as from outside: itself when it cannot change, else a frozen copy of plain data, else nothing. */
function readOnlyCopy(value: unknown): unknown {
  if (typeof value === 'function') return undefined;
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  try {
    return deepFreeze(structuredClone(value));
  } catch {
    return undefined; // not plain data (it holds a function, a class instance with private state)
  }
}
