// The example consumer's own test run: npx vitest run --config examples/pact-consumer/vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Vite's cache stays in the project's node_modules rather than a new one here.
  cacheDir: '../../node_modules/.vite',
  test: {
    root: import.meta.dirname,
    include: ['*.pact.test.ts'],
    // Pact's mock server starts per interaction; give it room on a busy machine.
    testTimeout: 30_000,
  },
})
