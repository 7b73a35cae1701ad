// The example suite's own run: npx vitest run --config examples/msw/vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  // Vite's cache stays in the project's node_modules rather than a new one here.
  cacheDir: '../../node_modules/.vite',
  test: {
    root: import.meta.dirname,
    include: ['*.test.ts'],
  },
})
