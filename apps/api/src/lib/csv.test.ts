import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.js';

describe('CSV fields', () => {
  it('neutralises a text cell that starts like a formula', () => {
    for (const text of ['=1+1', '+cmd', '-2+3+cmd|calc', '@SUM(A1)', '\tx', '-', '-4.62abc']) expect(csvField(text), text).toBe(`'${text}`);
  });

  it('leaves amounts and numbers as numbers', () => {
    expect(csvField('-4.62')).toBe('-4.62');
    expect(csvField('-1200')).toBe('-1200');
    expect(csvField(-3.5)).toBe('-3.5');
    expect(toCsv([['USAGE', '-4.62', 12]])).toBe('USAGE,-4.62,12\r\n');
  });

  it('quotes commas, quotes and line breaks', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=a,b')).toBe(`"'=a,b"`);
    expect(csvField(null)).toBe('');
  });
});
