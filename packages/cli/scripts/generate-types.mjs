// The command line's API types, generated from the committed OpenAPI document (docs/openapi.json) with
// openapi-typescript: src/generated/openapi.ts is a build output, never edited by hand. The file is rewritten only
// when its text changes, so a type-check and a lint that run side by side never read it half-written.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const source = new URL('../../../docs/openapi.json', import.meta.url);
const target = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));

// After `npm ci --omit=dev` the generator is absent: the install's own call (--if-available) then leaves the types alone.
let generator;
try {
  generator = await import('openapi-typescript');
} catch (error) {
  if (process.argv.includes('--if-available')) process.exit(0);
  throw error;
}
const { default: openapiTS, astToString } = generator;

const banner =
  '// Generated from docs/openapi.json by packages/cli/scripts/generate-types.mjs (npm run generate -w @kumo/cli).\n' +
  '// Do not edit: change the API and run `npm run openapi`, then build.\n\n';
const text = banner + astToString(await openapiTS(source));

if (!existsSync(target) || readFileSync(target, 'utf8') !== text) {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  console.log(`CLI API types written to ${target}`);
}
