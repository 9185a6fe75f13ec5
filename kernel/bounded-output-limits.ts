/**
 * OutputLimits as every resolver gets it: the sealed service with each cap clamped into the range
 * types/output-limit-ranges.ts gives it. OutputLimits is replaceable (`replaces: ['OutputLimits']`),
 * and the audit log and bash read their caps from it: whoever binds it must not be able to shrink
 * the audit log to nothing or lift bash's cap past what the model's context can take. Each clamp
 * is said once, naming the cap, its value and what is used.
 */
import { boundedLimit, OUTPUT_LIMIT_RANGES, type BoundedLimitKey } from '../types/output-limit-ranges.js';
import type { OutputLimits } from '../types/output-limits.js';

export function boundedOutputLimits(sealed: OutputLimits, warn: (message: string) => void): OutputLimits {
  const said = new Set<string>();
  const sayOnce = (message: string): void => {
    if (said.has(message)) return;
    said.add(message);
    warn(message);
  };
  const view: Record<PropertyKey, unknown> = {};
  for (const key of Reflect.ownKeys(sealed)) {
    if (typeof key === 'string' && Object.prototype.hasOwnProperty.call(OUTPUT_LIMIT_RANGES, key)) {
      const cap = key as BoundedLimitKey;
      Object.defineProperty(view, key, { enumerable: true, get: () => boundedLimit(cap, Reflect.get(sealed, key), sayOnce) });
    } else Object.defineProperty(view, key, Reflect.getOwnPropertyDescriptor(sealed, key)!);
  }
  // A cap the service left out reads as the built-in one rather than undefined.
  for (const key of Object.keys(OUTPUT_LIMIT_RANGES) as BoundedLimitKey[]) {
    if (!Object.prototype.hasOwnProperty.call(view, key)) Object.defineProperty(view, key, { enumerable: true, get: () => boundedLimit(key, undefined, sayOnce) });
  }
  return Object.freeze(view) as unknown as OutputLimits;
}
