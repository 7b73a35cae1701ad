// The layer rules of .dependency-cruiser.cjs (npm run lint) each fail on a deliberate breach: a
// small tree laid out like src/, with one breach per rule, is cruised with the project's own
// configuration in a temporary folder, and every rule reports exactly its breach.
import { execFile } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { projectRoot as root } from '../../src/paths.ts'

const run = promisify(execFile)

/** Each file of the tree and what it imports. */
const TREE: Record<string, string> = {
  // kernel-knows-only-contracts: the kernel reaches into the store.
  'src/kernel/clock.ts': "import { table } from '../store/table.ts'\nexport const clock = table",
  'src/kernel/errors.ts': 'export const errors = 1',
  // contracts-stand-alone: the contracts lean on the kernel.
  'src/contracts/load.ts': "import { errors } from '../kernel/errors.ts'\nexport const load = errors",
  // harness-knows-only-contracts: the harness uses the kernel.
  'src/harness/runner.ts': "import { errors } from '../kernel/errors.ts'\nimport { load } from '../contracts/load.ts'\nexport const runner = [errors, load]",
  // store-knows-no-resource: the store names a resource's rows.
  'src/store/table.ts': "import type { ClientRow } from '../resources/clients/index.ts'\nexport const table = (row: ClientRow) => row",
  'src/resources/clients/index.ts': "export type { ClientRow } from './rows.ts'",
  'src/resources/clients/rows.ts': 'export interface ClientRow { id: number }',
  // resources-meet-through-index: records reads clients' rows.ts around its index.ts.
  'src/resources/records/index.ts': "export { records } from './service.ts'",
  'src/resources/records/service.ts': "import type { ClientRow } from '../clients/rows.ts'\nexport const records = (row: ClientRow) => row",
  // no-folder-cycles, through a type-only import: cases -> forms -> cases (no module loop).
  'src/resources/cases/index.ts': "export const cases = 1",
  'src/resources/cases/service.ts': "import type { Form } from '../forms/index.ts'\nexport const caseOf = (form: Form) => form",
  'src/resources/forms/index.ts': "import { cases } from '../cases/index.ts'\nexport type Form = typeof cases",
  // control-wired-only-by-app: services.ts wires the control API.
  'src/control/routes.ts': 'export const controlRoutes = 1',
  'src/app.ts': "import { controlRoutes } from './control/routes.ts'\nexport const app = controlRoutes",
  'src/services.ts': "import { controlRoutes } from './control/routes.ts'\nexport const services = controlRoutes",
  // ui-wired-only-by-app: main.ts wires a page; ui-reaches-state-through-services: a page writes the store's tables.
  'src/ui/index.ts': "import { table } from '../store/table.ts'\nexport const ui = table",
  'src/main.ts': "import { ui } from './ui/index.ts'\nexport const main = ui",
  // no-module-cycles: two lifecycle files import each other (one folder, so no folder cycle).
  'src/lifecycle/engine.ts': "import { scans } from './scans.ts'\nexport const engine = () => scans",
  'src/lifecycle/scans.ts': "import { engine } from './engine.ts'\nexport const scans = () => engine",
}

const EXPECTED = [
  { rule: 'contracts-stand-alone', from: 'src/contracts/load.ts', to: 'src/kernel/errors.ts' },
  { rule: 'control-wired-only-by-app', from: 'src/services.ts', to: 'src/control/routes.ts' },
  { rule: 'harness-knows-only-contracts', from: 'src/harness/runner.ts', to: 'src/kernel/errors.ts' },
  { rule: 'kernel-knows-only-contracts', from: 'src/kernel/clock.ts', to: 'src/store/table.ts' },
  { rule: 'no-folder-cycles', from: 'src/resources/cases', to: 'src/resources/forms' },
  { rule: 'no-folder-cycles', from: 'src/resources/forms', to: 'src/resources/cases' },
  { rule: 'no-module-cycles', from: 'src/lifecycle/engine.ts', to: 'src/lifecycle/scans.ts' },
  { rule: 'resources-meet-through-index', from: 'src/resources/records/service.ts', to: 'src/resources/clients/rows.ts' },
  { rule: 'store-knows-no-resource', from: 'src/store/table.ts', to: 'src/resources/clients/index.ts' },
  { rule: 'ui-reaches-state-through-services', from: 'src/ui/index.ts', to: 'src/store/table.ts' },
  { rule: 'ui-wired-only-by-app', from: 'src/main.ts', to: 'src/ui/index.ts' },
]

const folder = mkdtempSync(join(tmpdir(), 'ivs-mock-layers-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

interface Violation {
  rule: { name: string; severity: string }
  from: string
  to: string
}

describe('npm run lint: the layer rules', () => {
  it('fails on a deliberate breach of each rule, and reports nothing else', async () => {
    for (const [path, text] of Object.entries(TREE)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true })
      writeFileSync(join(folder, path), `${text}\n`)
    }
    copyFileSync(join(root, '.dependency-cruiser.cjs'), join(folder, '.dependency-cruiser.cjs'))
    copyFileSync(join(root, 'tsconfig.json'), join(folder, 'tsconfig.json'))
    const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs')
    const cruise = (...args: string[]) =>
      run(process.execPath, [cli, 'src', ...args], { cwd: folder, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }).then(
        ({ stdout }) => ({ failed: false, stdout }),
        (error: { stdout: string }) => ({ failed: true, stdout: error.stdout }),
      )
    // As npm run lint runs it: the exit code fails the lint.
    expect((await cruise()).failed).toBe(true)
    const outcome = await cruise('--output-type', 'json')
    const violations = (JSON.parse(outcome.stdout) as { summary: { violations: Violation[] } }).summary.violations
    const found = violations.map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }))
    const byRuleThenPath = (a: { rule: string; from: string; to: string }, b: { rule: string; from: string; to: string }) =>
      `${a.rule} ${a.from} ${a.to}`.localeCompare(`${b.rule} ${b.from} ${b.to}`)
    expect(found.sort(byRuleThenPath)).toEqual(EXPECTED)
    expect(violations.every((violation) => violation.rule.severity === 'error')).toBe(true)
  }, 90_000)
})
