import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default mergeConfig(
  viteConfig,
  defineConfig({
    test: {
      environment: 'jsdom',
      setupFiles: ['./test/setup.ts'],
      include: ['src/**/*.test.{ts,tsx}'],
      restoreMocks: true,
      // A screen test renders and types through jsdom: on two cores shared with the API tests' PostgreSQL, one can take
      // longer than Vitest's 5 s default without anything being wrong.
      testTimeout: 15_000,
    },
  }),
);
