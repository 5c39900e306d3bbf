import { describe, expect, it } from 'vitest';
import { groupedDecimal } from './decimal-text';

const intl = (max: number, min: number) => new Intl.NumberFormat('en-US', { maximumFractionDigits: max, minimumFractionDigits: min });

describe('groupedDecimal', () => {
  it('groups thousands and pads or trims the decimals', () => {
    expect(groupedDecimal(1234.5, 2)).toBe('1,234.50');
    expect(groupedDecimal(1234567.891, 2, 0)).toBe('1,234,567.89');
    expect(groupedDecimal(12, 2, 0)).toBe('12');
    expect(groupedDecimal(0, 2)).toBe('0.00');
    expect(groupedDecimal(500, 0)).toBe('500');
  });

  it('rounds half away from zero on the shortest decimal form, carrying into the whole part', () => {
    expect(groupedDecimal(1.005, 2)).toBe('1.01');
    expect(groupedDecimal(999.995, 2)).toBe('1,000.00');
    expect(groupedDecimal(0.995, 2)).toBe('1.00');
    expect(groupedDecimal(-2.5, 0)).toBe('3');
  });

  it('reads exact decimal strings digit by digit', () => {
    expect(groupedDecimal('999999.995', 2)).toBe('1,000,000.00');
    expect(groupedDecimal('-0.5', 2)).toBe('0.50');
    expect(groupedDecimal('12345678901234567890.125', 2)).toBe('12,345,678,901,234,567,890.13');
  });

  it('spells out numbers JavaScript writes with an exponent', () => {
    expect(groupedDecimal(1e-7, 2)).toBe('0.00');
    expect(groupedDecimal(1e21, 0)).toBe('1,000,000,000,000,000,000,000');
  });

  it('writes every amount as Intl.NumberFormat does', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 5000; i++) {
      const scale = 10 ** Math.floor(random() * 9 - 2);
      const value = Math.round(random() * scale * 1e4) / 1e4 - (i % 3 === 0 ? scale / 2 : 0);
      for (const [max, min] of [
        [2, 2],
        [2, 0],
        [0, 0],
        [4, 2],
      ] as const) {
        const sign = value < 0 && /[1-9]/.test(groupedDecimal(value, max, min)) ? '-' : '';
        expect(`${sign}${groupedDecimal(value, max, min)}`, `${value} at ${max}/${min}`).toBe(
          intl(max, min)
            .format(value)
            .replace(/^-(?=0(\.0*)?$)/, ''),
        );
      }
    }
  });
});
