// npm run build: the steps that turn the sources into what runs, in order.
import { loadContracts } from '../contracts/load.ts'
import { writeGeneratedTypes } from './types.ts'

const steps: Array<[name: string, run: () => Promise<void>]> = [['types', () => writeGeneratedTypes(loadContracts())]]

for (const [name, run] of steps) {
  const started = performance.now()
  await run()
  console.log(`build: ${name} (${Math.round(performance.now() - started)} ms)`)
}
