import { describe, expect, it } from 'vitest';
import { formatUsd, initials } from './format';
import { formatDateTime, formatMonth } from './dates';

describe('formatUsd', () => {
  it('shows dollars with two decimals and thousands separators', () => {
    expect(formatUsd(1234.5)).toBe('$1,234.50');
    expect(formatUsd(0)).toBe('$0.00');
  });

  it('puts the minus sign before the dollar sign', () => {
    expect(formatUsd(-42.1)).toBe('-$42.10');
  });

  it('accepts exact decimal strings from the API', () => {
    expect(formatUsd('999999.99')).toBe('$999,999.99');
    expect(formatUsd('-0.5')).toBe('-$0.50');
  });

  it('does not show a minus sign for amounts that round to zero', () => {
    expect(formatUsd(-0.001)).toBe('$0.00');
  });

  it('can show whole dollars', () => {
    expect(formatUsd(500, 0)).toBe('$500');
  });
});

describe('formatDateTime', () => {
  it('uses the MMM D, YYYY h:mm A format', () => {
    expect(formatDateTime(new Date(2024, 0, 5, 14, 7))).toBe('Jan 5, 2024 2:07 PM');
    expect(formatDateTime(new Date(2023, 11, 31, 0, 30))).toBe('Dec 31, 2023 12:30 AM');
  });

  it('is empty for missing or invalid values', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
  });
});

describe('formatMonth', () => {
  it('uses the MMM, YYYY format', () => {
    expect(formatMonth(new Date(2024, 2, 15))).toBe('Mar, 2024');
  });
});

describe('initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Ada Lovelace Byron')).toBe('AL');
    expect(initials('  grace   hopper ')).toBe('GH');
  });

  it('uses one letter for a one-word name', () => {
    expect(initials('Plato')).toBe('P');
  });
});
