import { describe, expect, it } from 'vitest';
import { fileNameFrom } from './download-file';

describe('downloaded file names', () => {
  it('takes the name the server gives, quoted or not, and the fallback without one', () => {
    expect(fileNameFrom(new Headers({ 'content-disposition': 'attachment; filename="r-1.pdf"' }), 'x.pdf')).toBe('r-1.pdf');
    expect(fileNameFrom(new Headers({ 'content-disposition': 'attachment; filename=costs.csv' }), 'x.csv')).toBe('costs.csv');
    expect(fileNameFrom(new Headers({ 'content-disposition': 'attachment' }), 'x.pdf')).toBe('x.pdf');
    expect(fileNameFrom(new Headers(), 'x.pdf')).toBe('x.pdf');
  });
});
