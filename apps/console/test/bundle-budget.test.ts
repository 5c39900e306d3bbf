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
/** Brotli bytes (what a browser that accepts br is sent) the /login route may load before its form's own chunks. */
export const LOGIN_BUDGET = { js: 100 * KIB, css: 20 * KIB };

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const SIGN_IN_SCREEN = 'src/features/auth/components/sign-in-screen.tsx';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** Every file a chunk needs before it runs: itself, its static imports (not its dynamic ones) and their CSS. */
export function staticClosure(manifest: Manifest, roots: string[]): { js: Set<string>; css: Set<string> } {
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
  };
  roots.forEach(visit);
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
  it('walks static imports and CSS, not dynamic imports', () => {
    const manifest: Manifest = {
      'index.html': { file: 'a.js', isEntry: true, imports: ['_b.js'], css: ['a.css'] },
      '_b.js': { file: 'b.js', imports: ['_c.js'], css: ['b.css'] },
      '_c.js': { file: 'c.js' },
      'page.tsx': { file: 'page.js', imports: ['_c.js'], css: ['page.css'] },
    };
    const closure = staticClosure(manifest, ['index.html']);
    expect([...closure.js]).toEqual(['a.js', 'b.js', 'c.js']);
    expect([...closure.css]).toEqual(['a.css', 'b.css']);
  });

  it(`loads at most ${kib(LOGIN_BUDGET.js)} of JavaScript and ${kib(LOGIN_BUDGET.css)} of CSS, Brotli as sent`, () => {
    const manifestPath = join(dist, '.vite/manifest.json');
    if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build -w @kumo/console\` first`);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
    const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
    expect(entries).toEqual(['index.html']);
    // Should the sign-in screen ever become a lazy route, its chunk is part of the first download too.
    const roots = manifest[SIGN_IN_SCREEN] ? ['index.html', SIGN_IN_SCREEN] : ['index.html'];
    const { js, css } = staticClosure(manifest, roots);

    const sizes = [...js, ...css].map((file) => ({ file, gzip: sentBytes(file, 'gzip'), br: sentBytes(file, 'br') }));
    const total = (ext: string, encoding: Encoding) =>
      sizes.filter(({ file }) => file.endsWith(ext)).reduce((sum, size) => sum + size[encoding], 0);
    const jsTotal = total('.js', 'br');
    const cssTotal = total('.css', 'br');
    console.log(
      [
        '/login first download as sent (gzip, Brotli):',
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
