import { defineProject } from 'vitest/config';
import { sharedModuleGraph } from '@site/testing/isolation';

// The bench's pure logic (how budgets are judged); the measurements themselves run in `npm run bench`.
export default defineProject({
  test: {
    name: 'bench',
    root: import.meta.dirname,
    environment: 'node',
    // One module graph for all its files (@site/testing/isolation).
    ...sharedModuleGraph(import.meta.dirname, ['test/**/*.test.ts']),
  },
});
