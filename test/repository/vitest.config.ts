import { defineProject } from 'vitest/config';

// Facts about the repository as a whole: the runtime it pins, and that it stands alone.
export default defineProject({
  test: {
    name: 'repository',
    root: import.meta.dirname,
    environment: 'node',
    include: ['*.test.ts'],
  },
});
