import { defineConfig } from 'vitest/config';

// Each workspace owns its test projects (unit, component, infrastructure, browser).
export default defineConfig({
  test: {
    projects: [
      './{core,lambda,frontend,infra,local,ops}/vitest*.config.ts',
      './test/repository/vitest.config.ts',
      './test/mutation/vitest.config.ts',
      './bench/vitest.config.ts',
    ],
  },
});
