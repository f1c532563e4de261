import { defineProject } from 'vitest/config';

// The bench's pure logic (how budgets are judged); the measurements themselves run in `npm run bench`.
export default defineProject({
  test: {
    name: 'bench',
    root: import.meta.dirname,
    environment: 'node',
    include: ['test/**/*.test.ts'],
  },
});
