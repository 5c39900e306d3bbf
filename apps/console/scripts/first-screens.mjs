// Build step after `vite build`: draws each customer page's first screen into an HTML file of its own,
// dist/first-screen/<page>.html, which the API sends for that page's addresses instead of index.html. The markup is
// the console's own shell and page header (src/app/first-screen/render.tsx), rendered once here in a Node build of them,
// so a phone paints the page's frame from the HTML alone, before a line of script has arrived.
// The person's name is not known here: the markup holds an empty span where it goes, which public/first-paint.js
// fills through a CSS variable from the stored session; first-paint.js also shows the frame only to a signed-in customer.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { JSDOM } from 'jsdom';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const serverBuild = join(root, 'node_modules/.cache/first-screen');

await build({
  root,
  configFile: join(root, 'vite.config.ts'),
  logLevel: 'warn',
  ssr: { noExternal: true },
  build: { ssr: 'src/app/first-screen/render.tsx', outDir: serverBuild, emptyOutDir: true, manifest: false, ssrManifest: false },
});

// The shell's modules read the session and the colour scheme from the browser's storage when they load.
const { window } = new JSDOM('<!doctype html><html><body></body></html>', { url: 'http://localhost/' });
Object.assign(globalThis, { window, document: window.document, localStorage: window.localStorage, HTMLElement: window.HTMLElement });
const { FIRST_SCREENS, PLACEHOLDER_NAME, renderFirstScreen } = await import(pathToFileURL(join(serverBuild, 'render.js')).href);

const [firstName] = PLACEHOLDER_NAME.split(' ');
const initials = PLACEHOLDER_NAME.split(' ')
  .map((word) => word[0])
  .join('');
/** Where the person's name shows, and the span first-paint.js's CSS variable fills in its place. */
const personalTexts = [
  [`aria-label="${initials} ${PLACEHOLDER_NAME}: Profile menu"`, 'aria-label="Profile menu"'],
  [`>${initials}<`, '><span data-first-screen-text="initials"></span><'],
  [`> ${PLACEHOLDER_NAME}<`, '> <span data-first-screen-text="name"></span><'],
  [`>Welcome, ${firstName}<`, '>Welcome, <span data-first-screen-text="first-name"></span><'],
];
// Hidden unless first-paint.js found a customer's session; the spans read the person's name from its CSS variables.
const frameStyle =
  '<style>html:not([data-first-screen]) #first-screen{display:none}' +
  '[data-first-screen-text=initials]::before{content:var(--kumo-first-initials)}' +
  '[data-first-screen-text=name]::before{content:var(--kumo-first-name)}' +
  '[data-first-screen-text=first-name]::before{content:var(--kumo-first-first-name)}</style>';

const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
/** The files a chunk statically imports, itself included, and their stylesheets: what the page loads anyway. */
function filesOf(key, files = { scripts: new Set(), stylesheets: new Set() }, seen = new Set()) {
  if (seen.has(key) || !manifest[key]) return files;
  seen.add(key);
  files.scripts.add(manifest[key].file);
  for (const file of manifest[key].css ?? []) files.stylesheets.add(file);
  for (const child of manifest[key].imports ?? []) filesOf(child, files, seen);
  return files;
}
/** The chunk holding the signed-in shell: its guards, query cache and layout (vite.config.ts, codeSplitting). */
const shellChunk = Object.keys(manifest).find((key) => manifest[key].name === 'console' && !manifest[key].src);
if (!shellChunk) throw new Error('the build has no console chunk');
const pageSources = {
  home: 'src/app/home-route.tsx',
  clusters: 'src/features/clusters/clusters-page.tsx',
  subscriptions: 'src/features/subscriptions/subscriptions-page.tsx',
  'cost-analysis': 'src/features/cost-analysis/cost-analysis-page.tsx',
  users: 'src/features/users/users-page.tsx',
};

const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
const linked = new Set([...indexHtml.matchAll(/(?:href|src)="\/([^"]+)"/g)].map((match) => match[1]));
rmSync(join(dist, 'first-screen'), { recursive: true, force: true });
mkdirSync(join(dist, 'first-screen'));
for (const { file, path, header } of FIRST_SCREENS) {
  let markup = renderFirstScreen(path, header);
  for (const [text, replacement] of personalTexts) markup = markup.replaceAll(text, replacement);
  if (markup.includes(firstName) || markup.includes(`>${initials}<`))
    throw new Error(`${file}: the person's name is left in its first screen`);
  if (/<script/i.test(markup)) throw new Error(`${file}: its first screen has a script`);
  const source = pageSources[file];
  if (!source) throw new Error(`${file}: no page module is known for it`);
  // The page's stylesheets are linked from the head; its code is listed for first-paint.js, which fetches it at once
  // for a signed-in customer at the first contentful paint.
  const files = filesOf(source, filesOf(shellChunk));
  const stylesheets = [...files.stylesheets].filter((css) => !linked.has(css));
  const scripts = [...files.scripts].filter((js) => !linked.has(js));
  const links = stylesheets.map((css) => `<link rel="stylesheet" crossorigin href="/${css}">`).join('');
  const code = `<meta name="kumo-page-code" content="${scripts.map((js) => `/${js}`).join(' ')}">`;
  const html = indexHtml
    .replace('<script src="/first-paint.js">', `${code}<script src="/first-paint.js">`)
    .replace('</head>', `${links}${frameStyle}</head>`)
    .replace('<div id="root"></div>', `<div id="root"><div id="first-screen" aria-busy="true">${markup}</div></div>`);
  if (!html.includes(code)) throw new Error(`${file}: index.html has no first-paint.js to list the page's code for`);
  if (!html.includes('id="first-screen"')) throw new Error(`${file}: index.html has no empty #root to draw into`);
  writeFileSync(join(dist, 'first-screen', `${file}.html`), html);
}
console.log(`first screens drawn: ${FIRST_SCREENS.map((screen) => screen.file).join(', ')}`);
