// What npm run bench found, as it prints it: the lines of its figures and goals are also kept, and a
// whole run writes them to docs/benchmark.md under the machine, the generator and the commit they
// were measured on, so the figures the docs show are the bench's own, never typed by hand.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, release, totalmem } from 'node:os'

const lines: string[] = []

/** Prints a line of figures and keeps it for the report. */
export function report(line = ''): void {
  console.log(line)
  lines.push(line)
}

/** A goal's line: what it asks, met or not and the figure measured, or why it is not judged. */
export function goal(text: string, met: boolean | { unreliable: string }, figure: string): void {
  report(`goal: ${text}: ${typeof met === 'boolean' ? `${met ? 'met' : 'NOT met'} (${figure})` : `not judged, unreliable: ${met.unreliable}`}`)
}

/** The machine as /proc/cpuinfo names it. */
function cpuModel(): string {
  try {
    return /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'unknown CPU'
  } catch {
    return 'unknown CPU'
  }
}

function commit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() !== ''
    return `${head}${dirty ? ' with uncommitted changes' : ''}`
  } catch {
    return 'unknown'
  }
}

export interface ReportContext {
  generator: string
  pinned: string
  command: string
  /** The load average when the run began and ended. */
  load: { before: string; after: string }
}

/** Writes the kept lines to `file` as Markdown. */
export function writeReport(file: string, context: ReportContext): void {
  const text = [
    '# Benchmark figures',
    '',
    `Written by \`${context.command}\` (\`bench/run.ts\`), not by hand: [Benchmark](architecture.md#benchmark) says what each figure is and how it is measured.`,
    '',
    `- Measured: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit()}`,
    `- Machine: ${cpuModel()}, ${cpus().length} CPUs (the bench pins itself to one: its own count would say 1), ${(totalmem() / 2 ** 30).toFixed(0)} GB, Linux ${release()}, Node ${process.version}`,
    `- Load generator: ${context.generator}; ${context.pinned}`,
    `- Load average (1 min) when the run began and ended: ${context.load.before} and ${context.load.after}`,
    '',
    '```text',
    ...lines,
    '```',
    '',
  ].join('\n')
  writeFileSync(file, text)
}

/** The 1-minute load average, or '?' where /proc/loadavg is not there. */
export function loadAverage(): string {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ')[0] ?? '?'
  } catch {
    return '?'
  }
}
