import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** A built file whose name carries Vite's content hash (`assets/index-DukFvRSp.js`): a new build gives it a new name. */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[\w-]{8}\.[a-z0-9]+(?:\.br|\.gz)?$/;
/** What a browser may keep for a year without asking again: its name changes whenever its content does. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** index.html, the SPA fallback and unhashed files: asked again each time (a 304 when unchanged), so a release shows at once. */
export const REVALIDATE_CACHE = 'no-cache';

/** The customer pages whose HTML has their first screen drawn in by the console's build (first-screen/), by address. */
const FIRST_SCREEN_PAGES: [address: RegExp, file: string][] = [
  [/^\/$/, 'home'],
  [/^\/clusters(?:\/|$)/, 'clusters'],
  [/^\/subscriptions(?:\/|$)/, 'subscriptions'],
  [/^\/cost-analysis\/?$/, 'cost-analysis'],
  [/^\/users(?:\/|$)/, 'users'],
];

/**
 * Which built file answers a console page's address: the page's own HTML with its first screen drawn in, where the
 * build drew one, else index.html. Both start the same console; the first lets a phone paint the page's frame at once.
 */
export function consolePageFile(root: string): (path: string) => string {
  const drawn = new Set(
    FIRST_SCREEN_PAGES.map(([, file]) => file).filter((file) => existsSync(join(root, 'first-screen', `${file}.html`))),
  );
  return (path) => {
    const file = FIRST_SCREEN_PAGES.find(([address]) => address.test(path))?.[1];
    return file && drawn.has(file) ? `first-screen/${file}.html` : 'index.html';
  };
}

/**
 * Serves the built console. The build leaves a Brotli and a gzip copy beside every text file
 * (apps/console/scripts/precompress.mjs): the copy the browser accepts is sent as it is, nothing is compressed per request.
 */
export async function serveConsoleFiles(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    // The bare address is a page like any other: the not-found handler answers it (consolePageFile).
    index: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (response, path) => {
      response.setHeader('cache-control', HASHED_ASSET.test(path) ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
      // The answer depends on Accept-Encoding even when it is the plain file: a shared cache must keep them apart.
      response.setHeader('vary', 'accept-encoding');
    },
  });
}
