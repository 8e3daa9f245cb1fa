// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import extensionLayers from './eslint/extension-layers.js';
import { hostLayers } from './eslint/host-layers.js';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.output/**',
      '.wxt/**',
      'node_modules/**',
      'coverage/**',
      '.tmp/**',
      'native-host/config/fixtures/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['protocol/**/*.ts'],
    ignores: ['protocol/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'protocol/ is shared with the browser: no Node APIs.' },
            {
              group: ['wxt', 'wxt/*'],
              message: 'protocol/ is shared with the host: no browser APIs.',
            },
            {
              group: ['../native-host/*', '../extension/*'],
              message: 'protocol/ imports neither side.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['native-host/**/*.ts', 'installers/**/*.ts'],
    rules: {
      // stdout of the host is the wire: a stray console.log corrupts a frame.
      'no-console': 'error',
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/extension/*'], message: 'The host never imports extension code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['extension/**/*.ts', 'extension/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Extension code runs in the browser: no Node APIs.' },
            { group: ['**/native-host/*'], message: 'Talk to the host over the native port.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...hostLayers,
  ...extensionLayers,
);
