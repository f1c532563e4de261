import { defineConfig, mergeConfig } from 'vitest/config';
import { isolationPart } from '@site/testing/isolation';
import viteConfig from './vite.config.ts';

/**
 * Unit and component tests in jsdom, with the app's own Vite config (React, __BUILD_YEAR__).
 * `part`: the files that share one module graph, or those that replace a module, each
 * isolated (@site/testing/isolation).
 */
export function frontendProject(part: 'shared' | 'isolated') {
  return defineConfig(async (env) =>
    mergeConfig(
      await viteConfig(env),
      defineConfig({
        test: {
          name: part === 'shared' ? 'frontend' : 'frontend-isolated',
          root: import.meta.dirname,
          environment: 'jsdom',
          // The build's modules are tested beside them (build/); the typography set in Chromium
          // (lone-words.spec.ts) is the browser tier's, Playwright Test's.
          ...isolationPart(import.meta.dirname, ['src/**/*.test.{ts,tsx}', 'test/**/*.test.{ts,tsx}', 'build/*.test.ts'], part),
          setupFiles: ['test/setup.ts'],
          restoreMocks: true,
          unstubGlobals: true,
        },
      }),
    ),
  );
}

export default frontendProject('shared');
