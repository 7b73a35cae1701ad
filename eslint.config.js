import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'reports/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['eslint.config.js', '.dependency-cruiser.cjs', 'bin/*.js', 'src/webhook-delivery/verify.js', 'examples/*/*.mjs'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Test helpers return `any` JSON bodies on purpose: tests assert their exact shape.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // The launcher, the receiver helper (ivs-mock/webhooks) and the JavaScript examples are plain JavaScript that Node runs as it is, with Node's globals.
    files: ['bin/*.js', 'src/webhook-delivery/verify.js', 'examples/*/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    // dependency-cruiser reads its configuration as CommonJS.
    files: ['.dependency-cruiser.cjs'],
    languageOptions: { globals: globals.node, sourceType: 'commonjs' },
  },
  {
    // The pages (src/ui/) speak HTTP with hono, but their time is the mock's clock too.
    files: ['src/ui/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use the services\' clock.' },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Use the services\' clock.' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Use the services\' random.' },
      ],
    },
  },
  {
    files: ['src/resources/**/*.ts', 'src/control/**/*.ts', 'src/lifecycle/**/*.ts'],
    rules: {
      // Handlers get typed input and return their answer (kernel/operation.ts), so no resource needs
      // hono; time and randomness come from the context (ctx.clock,
      // ctx.random), so a frozen clock and a seed make every answer the same.
      'no-restricted-imports': ['error', { patterns: [{ group: ['hono', 'hono/*'], message: 'Handlers return their answer; the gate in kernel/operation.ts speaks HTTP.' }] }],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Use ctx.clock.' },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Use ctx.clock.' },
        { selector: "CallExpression[callee.object.name='Math'][callee.property.name='random']", message: 'Use ctx.random.' },
      ],
    },
  },
)
