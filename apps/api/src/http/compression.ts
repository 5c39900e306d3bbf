import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';

/** API answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Compresses the API's answers above the threshold, Brotli or gzip as the client's Accept-Encoding asks, with
 * `Vary: Accept-Encoding`. Only under /api/: the console's files come precompressed, and the probes' answers are tiny.
 * Compressible types only (JSON, CSV; not a PDF), and never an event stream; request bodies are not decompressed.
 */
export async function compressApiAnswers(app: FastifyInstance): Promise<void> {
  // Added before the plugin, so it runs first for every route that follows.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) route.compress = false;
  });
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    globalDecompression: false,
  });
}
