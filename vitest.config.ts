import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/support/setup.ts'],
    // vitest's default is one worker fewer than the cores (one on the 2-core machines CI and
    // contributors have), which ran the suite file after file; two keep both cores busy, as many
    // files wait on a process, a socket or a browser of their own (docs/architecture.md "Testing").
    maxWorkers: 2,
    // Each worker runs its files one after another in the same process, the contracts, the app's
    // modules and Ajv loaded once: isolated, every file imported them afresh, most of the suite's
    // time outside its tests. Every test makes its own mock (or team), so no file relies on
    // another's state; what changes a process's globals puts them back (TMPDIR, fake timers).
    isolate: false,
    // CLI tests start real processes; give them room on a 2-core CI machine.
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // CI reads its pass/fail counts from this report (see .ci/run).
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'reports/vitest.json' }]] : ['default'],
  },
})
