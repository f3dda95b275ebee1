// ESLint's rules for sokod's JavaScript: the page (static/, browser ES
// modules) and the tests (tests/, node). Run from the source root:
//   tests/js/node_modules/.bin/eslint -c tests/js/eslint.config.mjs static tests
// The recommended set catches real mistakes (undefined names, unused
// variables, unreachable code); the few rules added hold habits the code
// already keeps.
import js from '@eslint/js';
import globals from 'globals';

export default [
  { ignores: ['**/node_modules/', 'build*/'] },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': ['error', { destructuring: 'all' }],
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }],
    },
  },
  { files: ['static/**'], languageOptions: { globals: globals.browser } },
  { files: ['tests/**'], languageOptions: { globals: globals.node } },
  // Browser tests hand functions to the page, which run there.
  { files: ['tests/e2e/**'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
];
