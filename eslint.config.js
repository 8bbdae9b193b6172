// ESLint with typescript-eslint's type-checked rules over everything we typecheck.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.cache/**', 'coverage/**', 'examples/typed-client/schema.d.ts', 'examples/**/.wrangler/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Passing on a caught error (typed unknown) as a rejection is a rethrow, not a new reason.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // A leading underscore marks a parameter a signature needs but the body does not use.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests and scripts read untyped JSON bodies all day: `any` there is the point, not a slip.
    // Promise and async rules stay on everywhere.
    files: ['test/**', 'scripts/**', 'examples/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  {
    // Kysely documents `Kysely<any>` for migrations (a migration must not depend on today's table
    // types), and released migrations are never edited, so their signatures stay as released.
    files: ['src/storage/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Test doubles implement async interfaces (Kysely drivers, pools, fetch handlers, key
    // verifiers) without awaiting anything, and tests check that a hook that throws and one that
    // rejects are handled alike: there `async` is the interface under test, not a slip.
    files: ['test/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  { files: ['**/*.js', '**/*.mjs', 'tsup.config.ts', 'eslint.config.js'], ...tseslint.configs.disableTypeChecked },
  // Plain JavaScript files are Node scripts: Node's globals (process, console) are defined.
  { files: ['**/*.js', '**/*.mjs'], languageOptions: { globals: globals.node } },
);
