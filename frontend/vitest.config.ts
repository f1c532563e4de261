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
        // The build's modules are tested beside them (build/); the typography set in Chromium
        // (*.browser.test.ts) is the frontend-browser project's (vitest.browser.config.ts), not this tier's.
        include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'build/*.test.ts'],
        setupFiles: ['test/setup.ts'],
        restoreMocks: true,
        unstubGlobals: true,
      },
    }),
  ),
);
