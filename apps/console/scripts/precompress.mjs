// Build step after `vite build`: a Brotli (.br) and a gzip (.gz) copy beside every text file of the built console, so
// the API's static file server sends them as they are (preCompressed) instead of compressing on every request.
// Compressed once at build time, both at their highest level. A copy that would not be smaller is not written:
// the server then sends the file itself.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT_FILE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest|map)$/;

const encoders = {
  br: (bytes) =>
    brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      },
    }),
  gz: (bytes) => gzipSync(bytes, { level: constants.Z_BEST_COMPRESSION }),
};

/** Every file under dir, dot folders (Vite's manifest) included: the server serves those too. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

function precompress(dir) {
  let raw = 0;
  let brotli = 0;
  const files = filesUnder(dir).filter((file) => TEXT_FILE.test(file));
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    for (const [extension, encode] of Object.entries(encoders)) {
      const encoded = encode(bytes);
      if (encoded.length >= bytes.length) continue;
      writeFileSync(`${file}.${extension}`, encoded);
      if (extension === 'br') brotli += encoded.length;
    }
  }
  return { files: files.length, raw, brotli };
}

const dist = fileURLToPath(new URL('../dist', import.meta.url));
const { files, raw, brotli } = precompress(dist);
const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`;
console.log(`precompressed ${files} files in ${relative(process.cwd(), dist)}: ${kib(raw)}, ${kib(brotli)} as Brotli`);
