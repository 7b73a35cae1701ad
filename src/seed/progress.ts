// A large generated team takes a while (about a minute for 100,000 clients and 250,000 records),
// and the request that asks for it has no answer until then: the mock's console says how far it
// has got. Real time, not the mock's clock: it is about the wait, not about the world.

/** Where the lines go, and the real time elapsed (performance.now by default; tests count instead). */
export interface ProgressSink {
  report(line: string): void
  elapsedMs?(): number
}

/** Nothing for a team made within this; after it, a line this often. */
const QUIET_MS = 2_000
const EVERY_MS = 5_000
/** Rows between readings of the time, so a report costs nothing measurable per row. */
const ROWS_BETWEEN_READINGS = 256

const counted = new Intl.NumberFormat('en-GB')
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

export class GenerationProgress {
  private readonly elapsedMs: () => number
  private readonly began: number
  private nextReportAt: number
  private reported = false

  constructor(
    private readonly sink: ProgressSink,
    private readonly team: string,
  ) {
    this.elapsedMs = sink.elapsedMs?.bind(sink) ?? (() => performance.now())
    this.began = this.elapsedMs()
    this.nextReportAt = this.began + QUIET_MS
  }

  /** `done` of `total` rows of a kind are made. */
  made(kind: string, done: number, total: number): void {
    if (done % ROWS_BETWEEN_READINGS !== 0) return
    const now = this.elapsedMs()
    if (now < this.nextReportAt) return
    this.nextReportAt = now + EVERY_MS
    this.reported = true
    this.sink.report(`ivs-mock: making team "${this.team}": ${counted.format(done)} of ${counted.format(total)} ${kind} (${seconds(now - this.began)})`)
  }

  /** The closing line, when the wait was long enough to have said something. */
  finished(): void {
    if (this.reported) this.sink.report(`ivs-mock: team "${this.team}" made in ${seconds(this.elapsedMs() - this.began)}`)
  }
}
