import { defineConfig } from 'vitest/config';

// Each workspace owns its test projects (unit, component, infrastructure, browser); the suites
// that stand on the whole product (the browser tier, the repository's checks) are under test/.
export default defineConfig({
  test: {
    projects: [
      './{core,emulators,lambda,frontend,infra,local,ops}/vitest*.config.ts',
      './test/{browser,repository,mutation}/vitest.config.ts',
      './test/browser/vitest.sending.config.ts',
      './bench/vitest.config.ts',
    ],
  },
});
