import { describe, expect, it } from 'vitest';
import { clientName } from './client-name';

describe('clientName', () => {
  it('names a browser by its own name, version and system, not by the engines it claims kinship with', () => {
    expect(
      clientName('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36'),
    ).toBe('Headless Chrome 156 on Linux');
    expect(
      clientName(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.86',
      ),
    ).toBe('Edge 131 on Windows');
    expect(
      clientName('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15'),
    ).toBe('Safari 18 on macOS');
    expect(clientName('Mozilla/5.0 (Android 15; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0')).toBe('Firefox 133 on Android');
  });

  it('names a tool by its product and version', () => {
    expect(clientName('curl/8.5.0')).toBe('curl 8.5.0');
    expect(clientName('DBeaver/24.1.0 (Windows)')).toBe('DBeaver 24.1.0');
    expect(clientName('python-requests/2.31.0')).toBe('python-requests 2.31.0');
  });

  it('shortens what it cannot read', () => {
    expect(clientName('node')).toBe('node');
    const long = 'an unknown client that says a great deal about itself in one line';
    expect(clientName(long)).toBe(`${long.slice(0, 39)}…`);
  });
});
