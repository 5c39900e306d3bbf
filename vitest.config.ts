import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Vitest's default on two cores is one worker; the API files mostly wait on PostgreSQL, so a third keeps both cores busy
    // (the whole run here: 157 s with one worker, 110 s with three, 115 s with four).
    maxWorkers: 3,
    projects: ['packages/contract', 'packages/cli', 'apps/api', 'apps/console'],
  },
});
