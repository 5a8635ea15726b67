// ESLint (flat config): typescript-eslint's recommended rules with type information, plus the
// habits of the codebase that a linter can hold: no `any`, no unused code, no floating
// promises, `import type` for types, and no reaching into another package's source.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'coverage/**',
      'test/.tmp/**',
      // The integrators' project: its types are generated when its test runs, and its own tsc
      // --strict checks it there (test/integrators/integrators.test.ts).
      'test/integrators/stock/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
      'dpdm.config.cts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // The store port and the local API are async by contract; an implementation may not await.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@fleet/*/src/*', '@fleet/*/src'],
              message:
                "Import a workspace package by its name; its package.json 'exports' says what it offers.",
            },
          ],
        },
      ],
    },
  },
  {
    // Tests may use the engine's internals (relative paths) and Jest's loose expectations.
    files: ['test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  prettier,
);
