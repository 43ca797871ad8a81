// ESLint (typescript-eslint's recommended rules) over the whole project; `npm run lint` and
// test/lint.test.ts run it, so `npm test` fails on a lint error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', '.bench-build/**', 'node_modules/**', 'coverage/**', '.test-results/**', '.test-build/**', 'openapi/**', 'reference/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Node's globals everywhere but in the browser's code.
    ignores: ['src/docs/browser/**'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        fetch: 'readonly',
        Response: 'readonly',
        Request: 'readonly',
        Headers: 'readonly',
        AbortSignal: 'readonly',
        structuredClone: 'readonly',
        URLSearchParams: 'readonly',
        performance: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
        globalThis: 'readonly',
        NodeJS: 'readonly',
        crypto: 'readonly',
      },
    },
  },
  {
    rules: {
      // Unused names are tsc's job (noUnusedLocals); a leading underscore marks one left out on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      // Test doubles and JSON answers are `any` on purpose; production code keeps its types.
      '@typescript-eslint/no-explicit-any': 'off',
      // `z.ZodObject<{}>` is zod's type of an object schema without members.
      '@typescript-eslint/no-empty-object-type': ['error', { allowObjectTypes: 'always' }],
      // A handler declared before the value it calls is assigned (signal handling) reads it later.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // It flags the `let x = fallback; try { x = ... } catch {}` pattern, which reads clearly.
      'no-useless-assignment': 'off',
    },
  },
  {
    // The rules name the field a problem is about ({ attribute: 'items[2].quantity' }, { relationship:
    // 'contract.id' }); the edge (src/http/domain-errors.ts) alone turns fields into JSON pointers.
    files: ['src/domain/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Literal[value=/^\\/(data|meta)(\\/|$)/]',
          message:
            "A JSON pointer in the domain: name the field instead ({ attribute: 'a.b' }, { relationship: 'contract.id' }, { meta: 'x' }, { input: 'ids[0]' }).",
        },
        {
          selector: 'TemplateElement[value.raw=/^\\/(data|meta)(\\/|$)/]',
          message:
            "A JSON pointer in the domain: name the field instead ({ attribute: 'a.b' }, { relationship: 'contract.id' }, { meta: 'x' }, { input: 'ids[0]' }).",
        },
      ],
    },
  },
  {
    // The API reference page's script runs in the browser, as it is written (src/docs/browser/tsconfig.json types it).
    files: ['src/docs/browser/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        history: 'readonly',
        atob: 'readonly',
        fetch: 'readonly',
        URL: 'readonly',
        SwaggerUIBundle: 'readonly',
      },
    },
  },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } } },
);
