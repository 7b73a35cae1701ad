// Runs bench/in-process.ts, bundled as the bare server is, in a Node process of its own (on the
// servers' core when pinned), and prints its figures beside their goals.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build as esbuild } from 'esbuild'
import { bundleOptions } from '../src/build/bundle.ts'
import { nodeCommand, type Cores } from './cores.ts'
import { median, percent, SATURATED } from './load.ts'
import { goal, report } from './report.ts'

export const IN_PROCESS_GOALS = {
  /** mock.fetch of GET /clients/{id} against a bare Hono app.request answering the same JSON. */
  fetchRatio: 1.3,
  newTeamMs: 2,
}

interface InProcessFigures {
  fetchUs: number
  bareUs: number
  ratios: number[]
  /** The process's CPU time over the rounds' wall time. */
  cpuShare: number
  rounds: number
  requests: number
  newTeamMs: number
  teams: number
}


export async function measureInProcess(cores: Cores | undefined): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'ivs-bench-in-process-'))
  try {
    const script = join(folder, 'in-process.js')
    await esbuild({ ...bundleOptions(fileURLToPath(new URL('./in-process.ts', import.meta.url)), script), write: true })
    const [file, args] = nodeCommand([script], cores)
    const env = { ...process.env, IVS_MOCK_PACKAGE: fileURLToPath(new URL('../dist/index.js', import.meta.url)) }
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(file, args, { stdio: ['ignore', 'pipe', 'inherit'], env })
      let text = ''
      child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()))
      child.on('exit', (code) => (code === 0 ? resolve(text) : reject(new Error(`bench/in-process.ts exited with ${String(code)}`))))
    })
    const figures = JSON.parse(output) as InProcessFigures
    const ratio = figures.fetchUs / figures.bareUs
    report(
      `in process: mock.fetch GET /api/v2/clients/{id} ${figures.fetchUs.toFixed(1)} µs, a bare Hono app.request answering the same JSON ${figures.bareUs.toFixed(1)} µs (medians of ${figures.rounds} alternating rounds of ${figures.requests}, the process at ${percent(figures.cpuShare)} CPU; each round's ratio ${median(figures.ratios).toFixed(2)}x at the median, ${Math.min(...figures.ratios).toFixed(2)}-${Math.max(...figures.ratios).toFixed(2)}x)`,
    )
    // Other work on the machine takes turns with the process, and not with both sides alike.
    const busy = figures.cpuShare >= SATURATED ? undefined : { unreliable: `the process had ${percent(figures.cpuShare)} of a core over the rounds, under ${percent(SATURATED)}: other work on the machine took turns with it` }
    goal(`mock.fetch at most ${IN_PROCESS_GOALS.fetchRatio.toFixed(2)}x the bare app.request`, busy ?? ratio <= IN_PROCESS_GOALS.fetchRatio, `${ratio.toFixed(2)}x`)
    goal(`newTeam() at most ${IN_PROCESS_GOALS.newTeamMs} ms`, busy ?? figures.newTeamMs <= IN_PROCESS_GOALS.newTeamMs, `${figures.newTeamMs.toFixed(2)} ms, the median of ${figures.teams}`)
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}
