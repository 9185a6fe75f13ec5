import { describe, expect, it } from '@jest/globals';
import { checkJsonSyntax } from '../../config/json-syntax.js';

describe('checkJsonSyntax', () => {
  it('accepts valid JSON', () => {
    expect(checkJsonSyntax('{"a": [1, -2.5e3, true, null, "x\\u00e9"]}')).toBeUndefined();
  });

  it('uses the position V8 reports, without the position text', () => {
    expect(checkJsonSyntax('{"a": 1,}')).toEqual({ offset: 8, message: 'invalid JSON: Expected double-quoted property name' });
  });

  it('finds the position itself when V8 gives none, and drops the quoted source', () => {
    const text = `{"a": [${'1,'.repeat(50)}1], "b": tru, "c": 2}`;
    expect(checkJsonSyntax(text)).toEqual({ offset: text.indexOf('tru,') + 3, message: "invalid JSON: Unexpected token ','" });
    expect(checkJsonSyntax('[1,]')).toEqual({ offset: 3, message: "invalid JSON: Unexpected token ']'" });
  });

  it('reports an unexpected end at the end of the text', () => {
    expect(checkJsonSyntax('{"a": [1')).toEqual({ offset: 8, message: "invalid JSON: Expected ',' or ']' after array element" });
    expect(checkJsonSyntax('nul')).toEqual({ offset: 3, message: 'invalid JSON: Unexpected end of JSON input' });
  });
});

// Offsets a reader needs: the exact character, whether V8 reports it or jsonc-parser locates it.
describe('error offsets', () => {
  it.each([
    ['{"a" 1}', 5],
    ['{"a": 01}', 7],
    ['{"a": "\\q"}', 8],
    ['{"a": "\\u12G4"}', 11],
    ['"x\ny"', 2],
    ['[1, 2] 3', 7],
    ['{"a": fals}', 10],
    ['{"a": NaN}', 6],
    ['{"a": 1} // no comments in JSON', 9],
    ['-', 1],
    ['', 0],
  ])('%j → %i', (text, offset) => {
    expect(checkJsonSyntax(text)?.offset).toBe(offset);
  });

  it('survives nesting deep enough to exhaust a recursive parser', () => {
    const deep = `${'['.repeat(200_000)}x`;
    expect(checkJsonSyntax(deep)?.offset).toBeGreaterThanOrEqual(0);
  });
});
