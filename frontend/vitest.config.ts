import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// Unit and component tests in jsdom, with the app's own Vite config (React, __BUILD_YEAR__).
export default defineConfig(async (env) =>
  mergeConfig(
    await viteConfig(env),
    defineConfig({
      test: {
        name: 'frontend',
        root: import.meta.dirname,
        environment: 'jsdom',
        // The build's own modules (brand-files.ts) are tested beside them, in Node.
        include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', '*.test.ts'],
        // The browser suites are the frontend-e2e project's (vitest.e2e.config.ts), in Node, not jsdom.
        exclude: ['test/e2e/**'],
        setupFiles: ['test/setup.ts'],
        restoreMocks: true,
        unstubGlobals: true,
      },
    }),
  ),
);
