import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // CLI tests start real processes; give them room on a 2-core CI machine.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // CI reads its pass/fail counts from this report (see .ci/run).
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
  },
})
