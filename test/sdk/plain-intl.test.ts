// The ICU-free stand-ins give what toLocaleString('en-US') / a name sort gave before them.
import { compareCodeUnits, compareNames, groupDigits } from '../../sdk/plain-intl.js';

describe('groupDigits', () => {
  it.each([0, 7, 999, 1000, 12_345, 999_999, 1_000_000, 123_456_789, -1, -999, -1000, -1_234_567, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER])(
    'writes %p as en-US does',
    (value) => {
      expect(groupDigits(value)).toBe(value.toLocaleString('en-US'));
    },
  );

  it('hands fractions, huge and non-finite numbers to toLocaleString', () => {
    for (const value of [1234.5678, 2 ** 60, Number.NaN, Number.POSITIVE_INFINITY]) expect(groupDigits(value)).toBe(value.toLocaleString('en-US'));
  });
});

describe('orders', () => {
  it('sorts names case-insensitively, then by code units', () => {
    expect(['general', 'Reviewer', 'explore', 'reviewer', 'Explore'].sort(compareNames)).toEqual(['Explore', 'explore', 'general', 'Reviewer', 'reviewer']);
  });

  it('sorts ids and ISO timestamps by code units', () => {
    expect(['2026-12-02T10:00:00.000Z', '2026-01-31T23:59:59.999Z', '2026-12-02T09:59:59.999Z'].sort(compareCodeUnits)).toEqual([
      '2026-01-31T23:59:59.999Z',
      '2026-12-02T09:59:59.999Z',
      '2026-12-02T10:00:00.000Z',
    ]);
    expect(compareCodeUnits('a', 'a')).toBe(0);
  });
});
