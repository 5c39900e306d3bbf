import { describe, expect, it } from 'vitest';
import { dateTime, money, text } from './format.js';
import { keyValues, table } from './table.js';

describe('money', () => {
  it('reads the API’s dollars as $1,234.00, negatives with a leading minus, cents exact', () => {
    expect(money(1234)).toBe('$1,234.00');
    expect(money(1234567.8)).toBe('$1,234,567.80');
    expect(money(0)).toBe('$0.00');
    expect(money(-12.5)).toBe('-$12.50');
    expect(money(0.1 + 0.2)).toBe('$0.30');
    expect(money(4730.72)).toBe('$4,730.72');
    expect(money(null)).toBe('-');
  });

  it('reads timestamps in UTC and never prints an empty cell', () => {
    expect(dateTime('2026-11-29T08:05:59.000Z')).toBe('2026-11-29 08:05 UTC');
    expect(dateTime(null)).toBe('-');
    expect(text('')).toBe('-');
    expect(text(0)).toBe('0');
  });
});

describe('table', () => {
  const rows = [
    { name: 'Sales-Analytics', balance: 9497.86 },
    { name: 'Łódź', balance: 12 },
  ];
  const columns = [
    { header: 'NAME', value: (row: (typeof rows)[number]) => row.name },
    { header: 'BALANCE', value: (row: (typeof rows)[number]) => money(row.balance), align: 'right' as const },
  ];

  it('pads each column to its widest cell, right-aligns money and leaves no trailing spaces', () => {
    expect(table(rows, columns)).toBe(
      ['NAME               BALANCE', 'Sales-Analytics  $9,497.86', 'Łódź                $12.00', ''].join('\n'),
    );
  });

  it('says so when there is nothing, and keeps a cell with a line break on one line', () => {
    expect(table([], columns, 'No clusters.')).toBe('No clusters.\n');
    expect(table([{ name: 'a\nb', balance: 1 }], columns)).toContain('a b');
  });

  it('aligns the values of a key/value list', () => {
    expect(
      keyValues([
        ['Name', 'x'],
        ['Closing balance', '$1.00'],
      ]),
    ).toBe('Name:             x\nClosing balance:  $1.00\n');
  });
});
