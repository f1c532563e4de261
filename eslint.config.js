// Lint for every workspace: typescript-eslint with type information, React hooks and
// jsx-a11y rules for the site, and the layers the layout depends on (docs/design.md, "Layers").
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers, bottom up: each workspace may import the ones listed for it, which all stand
 * below it, and never one above. The stand-ins (emulators) and the test support (testing)
 * stand just above core, so that a workspace's tests can use them; the top-level suites
 * (test/, bench/) stand on top of everything.
 */
export const LAYERS = {
  core: [],
  emulators: ['core'],
  testing: ['core', 'emulators'],
  lambda: ['core'],
  frontend: ['core'],
  infra: ['core', 'lambda', 'frontend'],
  local: ['core', 'emulators', 'lambda', 'frontend', 'infra'],
  ops: ['core', 'emulators', 'lambda', 'frontend', 'infra', 'local'],
};
const WORKSPACES = Object.keys(LAYERS);

/** What stands below the test support: its tests cannot use it without a cycle. */
const BELOW_TEST_SUPPORT = ['core', 'emulators', 'testing'];

/**
 * What each workspace's tests may import: what its code may, and the test support with the
 * stand-ins. A test that needs a workspace above its own belongs to that workspace's tests.
 */
export const TEST_LAYERS = Object.fromEntries(
  WORKSPACES.map((workspace) => [
    workspace,
    BELOW_TEST_SUPPORT.includes(workspace) ? LAYERS[workspace] : [...new Set([...LAYERS[workspace], 'emulators', 'testing'])],
  ]),
);
const TEST_FILES = ['**/*.test.{ts,tsx}', '**/*.spec.ts', '**/test/**', '**/e2e/**', '**/vitest*.config.ts'];

/** Another workspace is reached by its package name (@site/…), never by a relative path into it. */
const crossWorkspace = {
  regex: `^(\\.\\./)+(${WORKSPACES.join('|')})(/|$)`,
  message: 'Import another workspace by its package name (@site/lambda/…, @site/local/…), not by a relative path.',
};

/** Imports of the workspaces above `workspace` (`allowed`: what it may import), refused with the rule's name. */
function layerRule(workspace, allowed = LAYERS[workspace], who = workspace) {
  const above = WORKSPACES.filter((other) => other !== workspace && !allowed.includes(other));
  if (above.length === 0) return [];
  const names = allowed.length ? allowed.map((name) => `@site/${name}`).join(', ') : 'no other workspace';
  return [
    {
      group: above.flatMap((name) => [`@site/${name}`, `@site/${name}/*`]),
      message: `Layer rule (docs/design.md, "Layers"): ${who} may import ${names}; a definition two layers need lives below both.`,
    },
  ];
}

/**
 * core/node holds what runs in Node at build and synth time only (reading cdk.json, the check
 * of the firm's facts with libphonenumber-js, the deploy settings' schema). What ships to a
 * visitor's browser or into the function's bundle imports core/src alone.
 */
const RUNTIME_CODE = {
  'frontend/src': "the site's first-load JavaScript (budget 85 KB gzip)",
  'lambda/src': "the function's bundle and cold start (budgets 400 KB and 0.75x the anchor)",
};
const nodeOnlyCore = (folder) => ({
  group: ['@site/core/node', '@site/core/node/*'],
  message: `@site/core/node is for Node at build and synth time; ${folder} ships in ${RUNTIME_CODE[folder]} (docs/design.md, "Budgets"). Import from @site/core/<module>, or move the definition there.`,
});

const layers = WORKSPACES.flatMap((workspace) => [
  {
    files: [`${workspace}/**/*.{ts,tsx,js}`],
    ignores: TEST_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [crossWorkspace, ...layerRule(workspace)] }] },
  },
  {
    files: TEST_FILES.map((pattern) => `${workspace}/${pattern}`),
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [crossWorkspace, ...layerRule(workspace, TEST_LAYERS[workspace], `${workspace}'s tests`)] },
      ],
    },
  },
]);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/.ssr/',
      'cdk.out/',
      'bench/.work/',
      '.data/',
      'test/mutation/.work/',
      'test-results/',
      'playwright-report/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    rules: {
      'no-restricted-imports': ['error', { patterns: [crossWorkspace] }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `typeof import('…')` stays allowed: the build and the bench type what they import at run time (a built module, the bundle) by its source.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // React's act() returns a thenable that a synchronous callback never needs awaited.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: 'act', package: 'react' },
            { from: 'package', name: 'act', package: '@testing-library/react' },
          ],
        },
      ],
    },
  },
  ...layers,
  ...Object.keys(RUNTIME_CODE).map((folder) => ({
    files: [`${folder}/**/*.{ts,tsx}`],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': ['error', { patterns: [crossWorkspace, ...layerRule(folder.split('/')[0]), nodeOnlyCore(folder)] }],
    },
  })),
  {
    // The function's modules stay small enough to read in one sitting. A module that earns more
    // says why at its top, in the rule's own switch: `/* eslint-disable max-lines -- Its size: … */`.
    files: ['lambda/src/**/*.ts'],
    ignores: TEST_FILES,
    rules: { 'max-lines': ['error', { max: 300 }] },
  },
  {
    files: ['frontend/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    ...jsxA11y.flatConfigs.recommended,
    // Playwright's tests run in Node, not in React: their fixtures' `use` is no hook.
    ignores: ['**/*.spec.ts'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.flat.recommended.rules, ...jsxA11y.flatConfigs.recommended.rules },
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Hooks and content are what components are made of; they never reach back into them.
    files: ['frontend/src/**/use*.ts', 'frontend/src/content/**'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            crossWorkspace,
            ...layerRule('frontend'),
            nodeOnlyCore('frontend/src'),
            {
              group: ['**/components/**', '**/components'],
              message: 'Hooks and content must not import components.',
            },
            // A component's module is named after it (ContactForm.tsx); a feature's folder holds its own beside its hooks.
            { regex: '(^|/)[A-Z][A-Za-z]*$', caseSensitive: true, message: 'Hooks and content must not import components.' },
          ],
        },
      ],
    },
  },
  {
    // Tests and their support may use loose typing on purpose (fixtures, synthesized templates).
    files: [...TEST_FILES, 'testing/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      // A Playwright fixture that needs no other names none: `async ({}, use) => …`.
      'no-empty-pattern': ['error', { allowObjectPatternsAsParameters: true }],
    },
  },
  {
    // The node projects' test files share one module graph per worker (vitest.config.ts): a
    // module one file replaced or reloaded would stay so for the files after it.
    files: [...TEST_FILES, 'testing/**'],
    ignores: ['frontend/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'unmock', 'resetModules'].map((property) => ({
          object: 'vi',
          property,
          message:
            'Test files share a module graph (vitest.config.ts): inject the dependency instead, as the factories take their clients and clock.',
        })),
      ],
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // CloudFront Functions: plain cloudfront-js-2.0 scripts whose `handler` CloudFront calls.
    files: ['infra/lib/edge/*.js'],
    languageOptions: { sourceType: 'script', globals: {} },
    rules: { '@typescript-eslint/no-unused-vars': ['error', { varsIgnorePattern: '^handler$' }] },
  },
);
