import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Tests that start real portal processes run on their own afterwards (vitest.processes.config.ts).
    exclude: ['**/node_modules/**', '**/*.process.test.ts'],
    environment: 'node',
    // The API files import the same app; sharing one module graph per worker saves loading it for every file.
    isolate: false,
    // One embedded PostgreSQL server for the whole run; each test context gets a fresh database in it.
    globalSetup: ['test/support/embedded-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
