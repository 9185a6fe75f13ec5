// WebHeaders against Node's own (undici) Headers as the oracle: the vendor SDKs run on ours in
// the bundle, so every difference would be a behaviour change for them.
import { WebHeaders } from '../../sdk/http/web-headers.js';

type Step = (headers: { append(n: string, v: string): void; set(n: string, v: string): void; delete(n: string): void }) => void;

function sameAsUndici(init: [string, string][] | Record<string, string>, steps: Step[] = []): void {
  const ours = new WebHeaders(init);
  const theirs = new Headers(init);
  for (const step of steps) {
    step(ours);
    step(theirs);
  }
  expect([...ours]).toEqual([...theirs]);
  expect([...ours.keys()]).toEqual([...theirs.keys()]);
  expect([...ours.values()]).toEqual([...theirs.values()]);
  expect(ours.getSetCookie()).toEqual(theirs.getSetCookie());
  for (const name of ['content-type', 'Content-Type', 'x-multi', 'set-cookie', 'absent']) {
    expect(ours.get(name)).toBe(theirs.get(name));
    expect(ours.has(name)).toBe(theirs.has(name));
  }
}

describe('WebHeaders', () => {
  test('behaves as the Fetch standard: case, order, repeated values, set-cookie', () => {
    sameAsUndici({ 'Content-Type': 'application/json', 'X-Multi': 'a' });
    sameAsUndici([['X-Multi', 'a'], ['x-multi', 'b'], ['Set-Cookie', 'a=1'], ['set-cookie', 'b=2'], ['B', '1'], ['a', '2']]);
    sameAsUndici({ 'content-type': 'text/plain' }, [
      (h) => h.append('X-Multi', 'one'),
      (h) => h.append('x-MULTI', 'two'),
      (h) => h.set('Content-Type', 'application/json'),
      (h) => h.delete('CONTENT-TYPE'),
      (h) => h.append('set-cookie', 'c=3'),
    ]);
  });

  test('strips surrounding whitespace from values, as Headers does', () => {
    sameAsUndici({ 'x-multi': ' \t padded value \r\n' });
  });

  test('copies another Headers (ours or undici’s) and skips undefined record values', () => {
    const source = new Headers([['a', '1'], ['b', '2']]);
    expect([...new WebHeaders(source as unknown as Iterable<[string, string]>)]).toEqual([['a', '1'], ['b', '2']]);
    expect([...new WebHeaders(new WebHeaders({ a: '1' }))]).toEqual([['a', '1']]);
    expect([...new WebHeaders({ a: '1', b: undefined })]).toEqual([['a', '1']]);
  });

  test('refuses what Headers refuses, naming the header', () => {
    expect(() => new WebHeaders({ 'bad name': 'x' })).toThrow(/"bad name" is not a valid header name/);
    expect(() => new Headers({ 'bad name': 'x' })).toThrow(/invalid header name/);
    expect(() => new WebHeaders({ 'x-a': 'line\r\nInjected: 1' })).toThrow(/value of "x-a" contains NUL, CR or LF/);
    expect(() => new Headers({ 'x-a': 'line\r\nInjected: 1' })).toThrow(/invalid header value/);
    expect(() => new WebHeaders([['only-a-name']] as unknown as [string, string][])).toThrow(/a name and a value \(got 1 items\)/);
    expect(() => new WebHeaders('a: b' as unknown as Record<string, string>)).toThrow(TypeError);
    expect(() => new WebHeaders().get('')).toThrow(TypeError);
  });

  test('forEach and the string tag match', () => {
    const seen: string[] = [];
    new WebHeaders({ B: '2', a: '1' }).forEach((value, name) => seen.push(`${name}=${value}`));
    expect(seen).toEqual(['a=1', 'b=2']);
    expect(Object.prototype.toString.call(new WebHeaders())).toBe('[object Headers]');
  });
});
