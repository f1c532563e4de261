import { defineProject } from 'vitest/config';

// The summary of a mutation run (summary.ts); the run itself is `npm run test:mutation`, never part of `npm test`.
export default defineProject({
  test: {
    name: 'mutation',
    root: import.meta.dirname,
    environment: 'node',
    include: ['*.test.ts'],
  },
});
