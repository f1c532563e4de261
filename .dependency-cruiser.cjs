/**
 * The functions' import graph (`npm run lint` runs it over lambda/src; docs/design.md,
 * "Layers"): no cycle, type-only imports included, since a cycle of types is still two
 * modules that cannot be read, changed or tested one without the other; and what every
 * function shares (lambda/src/shared) stands below the concerns that use it.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'A module must not reach itself through its imports, type-only ones included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-stays-below',
      severity: 'error',
      comment: 'lambda/src/shared is what every function uses: it imports nothing of the concerns above it.',
      from: { path: '^lambda/src/shared/' },
      to: { path: '^lambda/src/', pathNot: '^lambda/src/shared/' },
    },
    {
      name: 'entries-are-entries',
      severity: 'error',
      comment: "lambda/src/handlers holds Lambda's entries, which the bundle starts from; nothing imports them.",
      from: { path: '^lambda/src/', pathNot: '^lambda/src/handlers/' },
      to: { path: '^lambda/src/handlers/' },
    },
  ],
  options: {
    // Type-only imports count: `import type` leaves nothing in the bundle, but ties the modules all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'lambda/tsconfig.json' },
    includeOnly: '^lambda/src/',
    exclude: { path: '\\.test\\.ts$' },
  },
};
