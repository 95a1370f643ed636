import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// Test files of the API, which may import anything.
const apiTests = ['api/src/**/*.test.ts', 'api/src/test/**', 'api/src/cluster/**'];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'web/src/gql/**',
      'data/**',
      'bench/out/**',
      'api/src/db/migrations/Migration*.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  // The hooks rules, the React Compiler-era ones included, on the web app's code.
  { files: ['web/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        fetch: 'readonly',
        FormData: 'readonly',
        Buffer: 'readonly',
        crypto: 'readonly',
        window: 'readonly',
        document: 'readonly',
        navigator: 'readonly',
        localStorage: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // A feature adds to a kernel interface as `interface AppDeps extends ReturnType<typeof itsDeps> {}`.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  // Imports point down (STYLE.md "Layers"): the kernel and the toolkits name no feature, and only
  // the composition root names every feature. Tests stand apart: they drive the whole app.
  {
    files: ['api/src/*.ts', 'api/src/http/**/*.ts', 'api/src/graphql/**/*.ts', 'api/src/db/**/*.ts'],
    ignores: [
      // The entry: it starts what the composition root makes.
      'api/src/main.ts',
      ...apiTests,
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [{ regex: '(^|/)(features|compose)/', message: 'The kernel and the toolkits import no feature.' }],
        },
      ],
    },
  },
  {
    files: ['api/src/features/**/*.ts'],
    ignores: apiTests,
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)compose/', message: 'A feature does not import the composition root.' }] },
      ],
    },
  },
);
