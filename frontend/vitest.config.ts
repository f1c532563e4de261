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
        // Set in Chromium: the frontend-browser project's (vitest.browser.config.ts), not this tier's.
        exclude: ['*.browser.test.ts'],
        setupFiles: ['test/setup.ts'],
        restoreMocks: true,
        unstubGlobals: true,
      },
    }),
  ),
);
