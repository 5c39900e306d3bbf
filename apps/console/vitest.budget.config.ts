import { defineConfig } from 'vitest/config';

// Runs only the first-download budget, after `vite build` (scripts/test.mjs); the unit tests run before the build.
export default defineConfig({
  root: import.meta.dirname,
  test: { include: ['test/bundle-budget.test.ts'], environment: 'node' },
});
