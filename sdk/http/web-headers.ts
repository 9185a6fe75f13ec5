/**
 * A WHATWG `Headers` that does not load Node's bundled undici. Touching the global `Headers`
 * (or `Response`, `FormData`, `fetch`) makes Node initialise undici, ≈ 22 ms of every launch;
 * the vendor SDKs are built with this class in place of the global (scripts/vendor-globals.mjs)
 * and `createNodeFetch` answers with it. Semantics follow the Fetch standard: names are
 * case-insensitive and iterate lower-cased in sorted order, repeated values join with ", ",
 * `set-cookie` stays a list, and invalid names or values throw a `TypeError`.
 */

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value may not contain NUL, CR or LF once its surrounding whitespace is stripped. */
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
const SURROUNDING_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

export type HeaderPairs = Iterable<readonly [string, string]> | Iterable<readonly string[]>;
export type WebHeadersInit = WebHeaders | HeaderPairs | Record<string, string | readonly string[] | undefined>;

export class WebHeaders {
  /** lower-cased name → its values in the order they were appended */
  readonly #values = new Map<string, string[]>();

  constructor(init?: WebHeadersInit | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== 'object') throw new TypeError('Headers: the initialiser must be an object, an iterable of pairs or another Headers');
    if (isIterable(init)) {
      for (const pair of init as Iterable<readonly string[]>) {
        const entry = [...pair];
        if (entry.length !== 2) throw new TypeError(`Headers: each pair must have a name and a value (got ${entry.length} items)`);
        this.append(String(entry[0]), String(entry[1]));
      }
      return;
    }
    for (const [name, value] of Object.entries(init)) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) this.append(name, String(item));
      else this.append(name, String(value));
    }
  }

  append(name: string, value: string): void {
    const key = checkedName(name);
    const values = this.#values.get(key);
    if (values) values.push(checkedValue(key, value));
    else this.#values.set(key, [checkedValue(key, value)]);
  }

  set(name: string, value: string): void {
    const key = checkedName(name);
    this.#values.set(key, [checkedValue(key, value)]);
  }

  delete(name: string): void {
    this.#values.delete(checkedName(name));
  }

  get(name: string): string | null {
    return this.#values.get(checkedName(name))?.join(', ') ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get('set-cookie') ?? [])];
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of [...this.#values.keys()].sort()) {
      const values = this.#values.get(name);
      if (values === undefined) continue; // deleted while iterating
      if (name === 'set-cookie') for (const value of values) yield [name, value];
      else yield [name, values.join(', ')];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  forEach(callback: (value: string, name: string, headers: WebHeaders) => void, thisArg?: unknown): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return 'Headers';
  }
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function';
}

function checkedName(name: string): string {
  const text = String(name);
  if (!HEADER_NAME.test(text)) throw new TypeError(`Headers: ${JSON.stringify(text)} is not a valid header name`);
  return text.toLowerCase();
}

function checkedValue(name: string, value: string): string {
  const text = String(value).replace(SURROUNDING_WHITESPACE, '');
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Headers: the value of "${name}" contains NUL, CR or LF`);
  return text;
}
