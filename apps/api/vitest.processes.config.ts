import { defineConfig } from 'vitest/config';

// Tests that start real portal processes (SIGKILL under money traffic, two portals on one database). They run after
// the other tests, two at a time, so that they and the timing-sensitive console tests never starve each other.
export default defineConfig({
  root: import.meta.dirname,
  test: {
    name: 'api-processes',
    include: ['test/**/*.process.test.ts'],
    environment: 'node',
    maxWorkers: 2,
    globalSetup: ['test/support/embedded-setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
