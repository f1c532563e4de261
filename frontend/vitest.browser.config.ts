import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

// Components rendered by the prerender and set by the site's stylesheet in the system
// Chromium, with the app's own Vite config: the browser tier's, never the unit tier's.
export default defineConfig(async (env) =>
  mergeConfig(
    await viteConfig(env),
    defineConfig({
      test: {
        name: 'frontend-browser',
        root: import.meta.dirname,
        environment: 'node',
        include: ['*.browser.test.ts'],
        testTimeout: 60_000,
        hookTimeout: 120_000,
      },
    }),
  ),
);
