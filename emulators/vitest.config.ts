import { defineProject } from 'vitest/config';

// The stand-ins themselves: dynalite stopped under load, API Gateway's payload format.
export default defineProject({
  test: {
    name: 'emulators',
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
});
