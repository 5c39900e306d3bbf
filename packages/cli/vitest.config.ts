import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The process tests need the built portal and command line: packages/cli/vitest.processes.config.ts runs them.
    exclude: [...configDefaults.exclude, 'test/**/*.process.test.ts'],
    environment: 'node',
  },
});
