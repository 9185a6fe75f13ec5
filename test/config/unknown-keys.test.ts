import { expect, test } from '@jest/globals';
import { closestKey, unknownKeyWarnings } from '../../config/unknown-keys.js';

const KNOWN = new Set(['permissions', 'hooks', 'sandbox', 'max_turns', 'provider', 'providers', 'mcp_servers']);

test('a close misspelling names the known key; a distant word names none', () => {
  expect(closestKey('permisions', KNOWN)).toBe('permissions');
  expect(closestKey('max_turn', KNOWN)).toBe('max_turns');
  expect(closestKey('provder', KNOWN)).toBe('provider');
  expect(closestKey('mcp-servers', KNOWN)).toBe('mcp_servers');
  expect(closestKey('Hooks', KNOWN)).toBe('hooks');
  expect(closestKey('colour', KNOWN)).toBeUndefined();
});

test('one warning per unknown key, file:line:col first; thousands of keys give a few lines', () => {
  expect(unknownKeyWarnings('settings:', [{ key: 'permisions', at: '/h/s.yaml:2:1' }, { key: 'hooks', at: '/h/s.yaml:5:1' }], KNOWN)).toEqual([
    'settings: /h/s.yaml:2:1: unknown key "permisions" (did you mean "permissions"?); ignored',
  ]);
  const many = Array.from({ length: 5000 }, (_, i) => ({ key: `k${i}`, at: `/h/c.yaml:${i + 1}:1` }));
  const warnings = unknownKeyWarnings('config:', many, KNOWN);
  expect(warnings).toHaveLength(11);
  expect(warnings.at(-1)).toBe('config: 4990 more unknown keys in /h/c.yaml; ignored');
});
