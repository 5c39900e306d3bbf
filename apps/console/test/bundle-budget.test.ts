// The sign-in screen is the first thing a new customer downloads, and each customer page is the first a signed-in
// customer downloads when they open its address: the JavaScript and CSS of each stay within a budget.
// Reads the manifest of the last `vite build`, so it runs after the build (scripts/test.mjs).
// Sizes are those of the bytes the server sends: the build's precompressed copy of each file (scripts/precompress.mjs),
// or the file itself where there is none.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const KIB = 1024;
/**
 * Brotli bytes (what a browser that accepts br is sent) /login may load before the first interaction. The CSS holds the
 * theme's variables (app/theme-variables.css, 1.3 KiB of Brotli), which Mantine's provider used to compute in script at every start.
 */
export const LOGIN_BUDGET = { js: 100 * KIB, css: 21 * KIB };

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
/**
 * The modules loaded on demand (manifest keys) that /login's first screen renders before it can be used; none today:
 * its e-mail form is part of the entry. What it fetches on the first touch of the form (the code step, the query
 * cache, the API client) or with the first toast is not counted.
 */
export const LOGIN_FIRST_SCREEN: string[] = [];

/**
 * Brotli bytes each customer page may load when its address is opened signed in (scripts/first-screens.mjs lists them in its HTML): the
 * entry, the signed-in shell and the page, with everything they import. Its code loaded later (a dialog's form, a
 * chart's library when it scrolls into sight) is not counted.
 */
export const PAGE_BUDGETS: Record<string, { js: number; css: number }> = {
  'src/app/home-route.tsx': { js: 210 * KIB, css: 24 * KIB },
  'src/features/clusters/clusters-page.tsx': { js: 285 * KIB, css: 24 * KIB },
  'src/features/subscriptions/subscriptions-page.tsx': { js: 265 * KIB, css: 24 * KIB },
  'src/features/cost-analysis/cost-analysis-page.tsx': { js: 230 * KIB, css: 24 * KIB },
  'src/features/users/users-page.tsx': { js: 255 * KIB, css: 24 * KIB },
};
/** The signed-in shell: the query cache, the customer guard, the shell layout and its sections, before any page. */
export const SIGNED_IN_SHELL = [
  'src/lib/api/query-layout.tsx',
  'src/app/guards/customer-guard.tsx',
  'src/app/shell/shell-layout.tsx',
  'src/app/shell/sections.ts',
];

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

/**
 * The manifest keys to await for `modules`: a module with a chunk of its own is its key; one that the build put into a
 * shared chunk (vite.config.ts's groups) has no key of its own, and is reached through the entry's on-demand shared
 * chunks (keys starting with '_'), which are then all awaited.
 */
export function awaitedKeys(manifest: Manifest, entry: string, modules: string[]): string[] {
  const shared = (manifest[entry]?.dynamicImports ?? []).filter((key) => key.startsWith('_'));
  const own = modules.filter((module) => manifest[module]);
  return own.length === modules.length ? own : [...own, ...shared];
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

function readManifest(): Manifest {
  const manifestPath = join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run \`npm run build -w @kumo/console\` first`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** The files' sizes as sent, largest first, and the JavaScript and CSS totals in each encoding. */
function sentSizes(files: Iterable<string>) {
  const sizes = [...files].map((file) => ({ file, gzip: sentBytes(file, 'gzip'), br: sentBytes(file, 'br') }));
  const total = (ext: string, encoding: Encoding) =>
    sizes.filter(({ file }) => file.endsWith(ext)).reduce((sum, size) => sum + size[encoding], 0);
  return { sizes: sizes.sort((a, b) => b.gzip - a.gzip), total };
}

const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

describe('first-download budgets of /login and the customer pages', () => {
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

  it('awaits the shared chunks the entry loads on demand for a module that has no chunk of its own', () => {
    const grouped: Manifest = { ...manifest, 'index.html': { ...manifest['index.html']!, dynamicImports: ['step.tsx', '_shared.js'] } };
    grouped['_shared.js'] = { file: 'shared.js', imports: ['_c.js'] };
    expect(awaitedKeys(grouped, 'index.html', ['step.tsx'])).toEqual(['step.tsx']);
    expect(awaitedKeys(grouped, 'index.html', ['step.tsx', 'shell.tsx'])).toEqual(['step.tsx', '_shared.js']);
    expect([...firstScreenClosure(grouped, 'index.html', ['step.tsx', '_shared.js']).js]).toContain('shared.js');
  });

  it('refuses an awaited module that nothing on the way imports', () => {
    expect(() => firstScreenClosure(manifest, 'index.html', ['inner.tsx'])).toThrow('imports inner.tsx');
    expect(() => firstScreenClosure(manifest, 'index.html', ['gone.tsx'])).toThrow('imports gone.tsx');
  });

  it(`loads at most ${kib(LOGIN_BUDGET.js)} of JavaScript and ${kib(LOGIN_BUDGET.css)} of CSS, Brotli as sent`, () => {
    const manifest = readManifest();
    const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
    expect(entries).toEqual(['index.html']);
    const { js, css } = firstScreenClosure(manifest, 'index.html', LOGIN_FIRST_SCREEN);
    const { sizes, total } = sentSizes([...js, ...css]);
    const jsTotal = total('.js', 'br');
    const cssTotal = total('.css', 'br');
    console.log(
      [
        '/login first download, up to a usable e-mail form, as sent (gzip, Brotli):',
        ...sizes.map(({ file, gzip, br }) => `  ${kib(gzip).padStart(10)} ${kib(br).padStart(10)}  ${file}`),
        `  JavaScript (Brotli) ${kib(jsTotal)} of ${kib(LOGIN_BUDGET.js)} (gzip ${kib(total('.js', 'gzip'))}), ` +
          `CSS (Brotli) ${kib(cssTotal)} of ${kib(LOGIN_BUDGET.css)} (gzip ${kib(total('.css', 'gzip'))})`,
      ].join('\n'),
    );
    // Brotli is what every current browser accepts and is sent; gzip, for the others, is a little larger.
    expect(jsTotal, 'Brotli JavaScript on /login').toBeLessThanOrEqual(LOGIN_BUDGET.js);
    expect(cssTotal, 'Brotli CSS on /login').toBeLessThanOrEqual(LOGIN_BUDGET.css);
  });

  for (const [page, budget] of Object.entries(PAGE_BUDGETS)) {
    it(`opens ${page} signed in with at most ${kib(budget.js)} of JavaScript and ${kib(budget.css)} of CSS, Brotli as sent`, () => {
      const manifest = readManifest();
      const { js, css } = firstScreenClosure(manifest, 'index.html', awaitedKeys(manifest, 'index.html', [...SIGNED_IN_SHELL, page]));
      const { total } = sentSizes([...js, ...css]);
      const jsTotal = total('.js', 'br');
      const cssTotal = total('.css', 'br');
      console.log(`${page} first download: JavaScript (Brotli) ${kib(jsTotal)} in ${js.size} files, CSS (Brotli) ${kib(cssTotal)}`);
      expect(jsTotal, `Brotli JavaScript opening ${page}`).toBeLessThanOrEqual(budget.js);
      expect(cssTotal, `Brotli CSS opening ${page}`).toBeLessThanOrEqual(budget.css);
      // Compiled as it downloads, off the main thread (vite.config.ts, compile hint): the first lines of each file.
      for (const file of js)
        expect(readFileSync(join(dist, file), 'utf8').split('\n', 2), `compile hint of ${file}`).toContain(COMPILE_HINT);
    });
  }

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
