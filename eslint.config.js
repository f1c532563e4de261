// Lint for every workspace: typescript-eslint with type information, React hooks and
// jsx-a11y rules for the site, and the layers the layout depends on (docs/design.md, "Layers").
import js from '@eslint/js';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers, bottom up: each workspace may import the ones listed for it, which all stand
 * below it, and never one above. Tests and the bench stand on top of all of them.
 */
export const LAYERS = {
  core: [],
  lambda: ['core'],
  frontend: ['core'],
  infra: ['core', 'lambda', 'frontend'],
  local: ['core', 'lambda', 'frontend', 'infra'],
  ops: ['core', 'lambda', 'frontend', 'infra', 'local'],
};
const WORKSPACES = Object.keys(LAYERS);
const TEST_FILES = ['**/*.test.{ts,tsx}', '**/test/**', '**/e2e/**', '**/vitest*.config.ts'];

/** Another workspace is reached by its package name (@site/…), never by a relative path into it. */
const crossWorkspace = {
  regex: `^(\\.\\./)+(${WORKSPACES.join('|')})(/|$)`,
  message: 'Import another workspace by its package name (@site/lambda/…, @site/local/…), not by a relative path.',
};

/** Imports of the workspaces above `workspace`, refused with the rule's name. */
function layerRule(workspace) {
  const above = WORKSPACES.filter((other) => other !== workspace && !LAYERS[workspace].includes(other));
  if (above.length === 0) return [];
  const allowed = LAYERS[workspace].length ? LAYERS[workspace].map((name) => `@site/${name}`).join(', ') : 'no other workspace';
  return [
    {
      group: above.flatMap((name) => [`@site/${name}`, `@site/${name}/*`]),
      message: `Layer rule (docs/design.md, "Layers"): ${workspace} may import ${allowed}; a definition two layers need lives below both.`,
    },
  ];
}

const layers = WORKSPACES.map((workspace) => ({
  files: [`${workspace}/**/*.{ts,tsx,js}`],
  ignores: TEST_FILES,
  rules: { 'no-restricted-imports': ['error', { patterns: [crossWorkspace, ...layerRule(workspace)] }] },
}));

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/.ssr/', 'cdk.out/', 'bench/.work/', '.data/', 'test/mutation/.work/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts'] }, tsconfigRootDir: import.meta.dirname },
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
  {
    files: ['frontend/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    ...jsxA11y.flatConfigs.recommended,
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.flat.recommended.rules, ...jsxA11y.flatConfigs.recommended.rules },
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Hooks and content are what components are made of; they never reach back into them.
    files: ['frontend/src/hooks/**', 'frontend/src/content/**'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            crossWorkspace,
            ...layerRule('frontend'),
            { group: ['**/components/**', '**/components'], message: 'Hooks and content must not import components.' },
          ],
        },
      ],
    },
  },
  {
    // Tests may use loose typing on purpose (fixtures, synthesized templates).
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
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
