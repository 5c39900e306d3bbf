import { defineConfig } from 'vitest/config';

// The built `kumo` run as a child process against one real portal on the embedded default (its own PostgreSQL in a
// temporary DATA_DIR, demo data, dev mailbox). `npm test` runs it after the build, beside the API's process tests.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'cli-processes',
    include: ['test/**/*.process.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});
