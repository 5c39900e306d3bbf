import { defineConfig } from 'vitest/config';

// Runs only the checks of the built console (first-download budget, precompressed copies), after `vite build`
// (scripts/test.mjs); the unit tests run before the build.
export default defineConfig({
  root: import.meta.dirname,
  test: { include: ['test/bundle-budget.test.ts'], environment: 'node' },
});
