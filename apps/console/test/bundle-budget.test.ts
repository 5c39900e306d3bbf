// The sign-in screen is the first thing a new customer downloads: its JavaScript and CSS stay within a budget.
// Reads the manifest of the last `vite build`, so it runs after the build (scripts/test.mjs).
// Sizes are those of the bytes the server sends: the build's precompressed copy of each file (scripts/precompress.mjs),
// or the file itself where there is none.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const KIB = 1024;
/** Brotli bytes (what a browser that accepts br is sent) /login may load before the first interaction. */
export const LOGIN_BUDGET = { js: 100 * KIB, css: 20 * KIB };

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
/**
 * The modules loaded on demand (manifest keys) that /login's first screen renders before it can be used; none today:
 * its e-mail form is part of the entry. What it fetches on the first touch of the form (the code step, the query
 * cache, the API client) or with the first toast is not counted.
 */
export const LOGIN_FIRST_SCREEN: string[] = [];

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * Every file the entry needs before its first screen can be used: the entry, its static imports and their CSS, and of
 * its dynamic imports (and theirs) the ones the first screen awaits, with everything they import in turn.
 * Throws when an awaited module is missing or no chunk on the way imports it, so a renamed or moved step is noticed.
 */
export function firstScreenClosure(manifest: Manifest, entry: string, awaited: string[]): { js: Set<string>; css: Set<string> } {
  const js = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no chunk ${key}`);
    js.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
    for (const imported of chunk.dynamicImports ?? []) if (awaited.includes(imported)) visit(imported);
  };
  visit(entry);
  const unreached = awaited.filter((key) => !seen.has(key));
  if (unreached.length > 0) throw new Error(`no chunk loaded by ${entry} imports ${unreached.join(', ')}`);
  return { js, css };
}

/** The copies the server picks from by Accept-Encoding (@fastify/static's preCompressed), and how to read them back. */
const ENCODINGS = { gzip: { extension: '.gz', decode: gunzipSync }, br: { extension: '.br', decode: brotliDecompressSync } };
type Encoding = keyof typeof ENCODINGS;

/** Bytes the server sends for the file to a browser that accepts the encoding. */
function sentBytes(file: string, encoding: Encoding): number {
  const copy = join(dist, file + ENCODINGS[encoding].extension);
  return readFileSync(existsSync(copy) ? copy : join(dist, file)).length;
}
const kib = (bytes: number) => `${(bytes / KIB).toFixed(1)} KiB`;

describe('first-download budget of /login', () => {
  const manifest: Manifest = {
    'index.html': { file: 'a.js', isEntry: true, imports: ['_b.js'], dynamicImports: ['step.tsx', 'later.tsx'], css: ['a.css'] },
    '_b.js': { file: 'b.js', imports: ['_c.js'], css: ['b.css'] },
    '_c.js': { file: 'c.js' },
    'step.tsx': { file: 'step.js', imports: ['_c.js', '_d.js'], dynamicImports: ['inner.tsx'], css: ['step.css'] },
    '_d.js': { file: 'd.js' },
    'inner.tsx': { file: 'inner.js', imports: ['_e.js'] },
    '_e.js': { file: 'e.js' },
    'later.tsx': { file: 'later.js', imports: ['_f.js'], css: ['later.css'] },
    '_f.js': { file: 'f.js' },
  };

  it('walks static imports and CSS, and only the dynamic imports the first screen awaits', () => {
    const bare = firstScreenClosure(manifest, 'index.html', []);
    expect([...bare.js]).toEqual(['a.js', 'b.js', 'c.js']);
    expect([...bare.css]).toEqual(['a.css', 'b.css']);
    const withStep = firstScreenClosure(manifest, 'index.html', ['step.tsx', 'inner.tsx']);
    expect([...withStep.js]).toEqual(['a.js', 'b.js', 'c.js', 'step.js', 'd.js', 'inner.js', 'e.js']);
    expect([...withStep.css]).toEqual(['a.css', 'b.css', 'step.css']);
  });

  it('refuses an awaited module that nothing on the way imports', () => {
    expect(() => firstScreenClosure(manifest, 'index.html', ['inner.tsx'])).toThrow('imports inner.tsx');
    expect(() => firstScreenClosure(manifest, 'index.html', ['gone.tsx'])).toThrow('imports gone.tsx');
  });

  it(`loads at most ${kib(LOGIN_BUDGET.js)} of JavaScript and ${kib(LOGIN_BUDGET.css)} of CSS, Brotli as sent`, () => {
    const manifestPath = join(dist, '.vite/manifest.json');
    if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build -w @kumo/console\` first`);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
    expect(entries).toEqual(['index.html']);
    const { js, css } = firstScreenClosure(manifest, 'index.html', LOGIN_FIRST_SCREEN);

    const sizes = [...js, ...css].map((file) => ({ file, gzip: sentBytes(file, 'gzip'), br: sentBytes(file, 'br') }));
    const total = (ext: string, encoding: Encoding) =>
      sizes.filter(({ file }) => file.endsWith(ext)).reduce((sum, size) => sum + size[encoding], 0);
    const jsTotal = total('.js', 'br');
    const cssTotal = total('.css', 'br');
    console.log(
      [
        '/login first download, up to a usable e-mail form, as sent (gzip, Brotli):',
        ...sizes
          .sort((a, b) => b.gzip - a.gzip)
          .map(({ file, gzip, br }) => `  ${kib(gzip).padStart(10)} ${kib(br).padStart(10)}  ${file}`),
        `  JavaScript (Brotli) ${kib(jsTotal)} of ${kib(LOGIN_BUDGET.js)} (gzip ${kib(total('.js', 'gzip'))}), ` +
          `CSS (Brotli) ${kib(cssTotal)} of ${kib(LOGIN_BUDGET.css)} (gzip ${kib(total('.css', 'gzip'))})`,
      ].join('\n'),
    );
    // Brotli is what every current browser accepts and is sent; gzip, for the others, is a little larger.
    expect(jsTotal, 'Brotli JavaScript on /login').toBeLessThanOrEqual(LOGIN_BUDGET.js);
    expect(cssTotal, 'Brotli CSS on /login').toBeLessThanOrEqual(LOGIN_BUDGET.css);
  });

  it('ships a Brotli and a gzip copy of every JavaScript, CSS and HTML file, each reading back as the file', () => {
    const files = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(?:js|css|html)$/.test(file));
    expect(files).toContain('index.html');
    for (const file of files) {
      const original = readFileSync(join(dist, file));
      for (const [encoding, { extension, decode }] of Object.entries(ENCODINGS)) {
        const copy = join(dist, file + extension);
        // The build leaves out a copy that would not be smaller, which only happens to a file of a few hundred bytes.
        if (!existsSync(copy) && original.length < KIB) continue;
        expect(existsSync(copy), `${file}${extension}`).toBe(true);
        expect(decode(readFileSync(copy)).equals(original), `${encoding} copy of ${file}`).toBe(true);
      }
    }
  });
});
