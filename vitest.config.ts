import { defineConfig } from 'vitest/config';

// Each workspace owns its test projects (unit, component, infrastructure); the suites that
// stand on the whole product (the repository's checks) are under test/. The browser tier is
// Playwright Test's (playwright.config.ts).
export default defineConfig({
  test: {
    projects: [
      './{core,emulators,lambda,frontend,infra,local,ops}/vitest*.config.ts',
      './test/{repository,mutation}/vitest.config.ts',
      './bench/vitest.config.ts',
    ],
  },
});
