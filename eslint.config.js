import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import featureBoundaries from './eslint/feature-boundaries.js';

export default tseslint.config(
  {
    ignores: [
      'apps/api/tmp-scratch/**',
      '**/dist/**',
      'apps/web/dist.*/**',
      'apps/api/dist.*/**',
      '**/node_modules/**',
      'data/**',
      'apps/web/public/**',
      'apps/api/src/db/migrations/**',
      'test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // The error catalogue holds both languages' texts: the web app takes its codes from lib/error-codes
  // and its texts from the `errors` namespace of the current language (see vite.config.ts).
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@sutura/domain/errors',
              importNames: ['ERRORS', 'isErrorCode', 'errorMessage'],
              allowTypeImports: true,
              message:
                "The catalogue's texts would come with it in both languages: use isErrorCode of '@/lib/error-codes' and i18n's `errors` namespace.",
            },
          ],
        },
      ],
    },
  },
  // One feature never imports another (eslint/feature-boundaries.js).
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { sutura: featureBoundaries },
    rules: { 'sutura/no-cross-feature-imports': 'error' },
  },
  { files: ['**/*.js'], ...tseslint.configs.disableTypeChecked },
  // Old-syntax CommonJS on purpose: it must parse on the Node versions it refuses.
  {
    files: ['**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off', 'no-var': 'off' },
  },
);
