// Everything that happens later (check results, reminders, expiry; later scans and webhook
// retries) is a job due at a moment of the mock's clock, never a real timer. Jobs are plain rows
// kept in the world (so --data keeps them across restarts) and run when the clock reaches them:
// before each request, when the control API advances the clock, and from the server's tick.
import type { Clock } from './clock.ts'
import { MinHeap } from './heap.ts'

export interface JobRow {
  id: number
  /** What to do, e.g. check.result; a handler is registered per kind. */
  kind: string
  team: number
  /** Id of what the job is about (a check, a record). */
  subject: number
  /** Epoch milliseconds on the mock's clock. */
  due: number
}

export type JobHandler = (job: JobRow) => void

/** What a scheduler holds out of the queue (holdBeyond): the jobs due by its horizon in a heap, indexed by subject for cancelling, and the later ones. */
interface HeldJobs {
  soon: DueHeap
  soonAbout: JobsAbout
  later: JobsAbout
}

/** What keeps the queue durable (--data): told of every job added and removed, and running each run of due jobs as one write unit. */
export interface JobQueueLog {
  added(job: JobRow): void
  removed(job: JobRow): void
  /** Runs the work as one write unit, committed before it returns. */
  unit<T>(work: () => T): T
}

/** The index of the first job due after `moment` in a queue sorted by due (a binary search). */
function firstAfter(jobs: readonly JobRow[], moment: number): number {
  let low = 0
  let high = jobs.length
  while (low < high) {
    const middle = (low + high) >>> 1
    if ((jobs[middle] as JobRow).due <= moment) low = middle + 1
    else high = middle
  }
  return low
}

/**
 * The jobs of each queue by what they are about (kind, team, subject), so cancelling a record's
 * reminders does not walk the whole queue. Kept beside the queue array (every Scheduler on the
 * same queue shares it), built when first needed, and dropped when the queue is changed wholesale
 * (forgetJobIndex); cancel checks each job it names is still in the queue.
 */
const jobIndexes = new WeakMap<JobRow[], JobsAbout>()

/** Jobs by what they are about: by kind, then team, then subject (maps of numbers: no key to build for each job). */
class JobsAbout {
  private readonly byKind = new Map<string, Map<number, Map<number, JobRow[]>>>()

  get(kind: string, team: number, subject: number): JobRow[] | undefined {
    return this.byKind.get(kind)?.get(team)?.get(subject)
  }

  add(job: JobRow): void {
    let teams = this.byKind.get(job.kind)
    if (!teams) this.byKind.set(job.kind, (teams = new Map()))
    let subjects = teams.get(job.team)
    if (!subjects) teams.set(job.team, (subjects = new Map()))
    const same = subjects.get(job.subject)
    if (same) same.push(job)
    else subjects.set(job.subject, [job])
  }

  remove(job: JobRow): void {
    const same = this.get(job.kind, job.team, job.subject)
    if (!same) return
    const at = same.indexOf(job)
    if (at >= 0) same.splice(at, 1)
    if (same.length === 0) this.delete(job.kind, job.team, job.subject)
  }

  delete(kind: string, team: number, subject: number): void {
    const teams = this.byKind.get(kind)
    const subjects = teams?.get(team)
    if (!teams || !subjects) return
    subjects.delete(subject)
    if (subjects.size === 0) teams.delete(team)
  }

  *all(): Generator<JobRow> {
    for (const teams of this.byKind.values()) for (const subjects of teams.values()) for (const jobs of subjects.values()) yield* jobs
  }
}

function jobIndex(jobs: JobRow[]): JobsAbout {
  let index = jobIndexes.get(jobs)
  if (index) return index
  index = new JobsAbout()
  for (const job of jobs) index.add(job)
  jobIndexes.set(jobs, index)
  return index
}

function unindexJob(jobs: JobRow[], job: JobRow): void {
  jobIndexes.get(jobs)?.remove(job)
}

/** The queue was changed other than through these functions (a world reloaded): its index is built again when next needed. */
export function forgetJobIndex(jobs: JobRow[]): void {
  jobIndexes.delete(jobs)
}

/** Where a job sits in a queue sorted by due (a search among the jobs due at its moment), or -1. */
function positionOf(jobs: readonly JobRow[], job: JobRow): number {
  for (let index = firstAfter(jobs, job.due - 1); index < jobs.length && (jobs[index] as JobRow).due === job.due; index++) {
    if (jobs[index] === job) return index
  }
  return -1
}

/** Puts a job into a queue sorted by due moment, after the jobs due at the same moment. */
export function insertJob(jobs: JobRow[], job: JobRow): void {
  jobs.splice(firstAfter(jobs, job.due), 0, job)
  jobIndexes.get(jobs)?.add(job)
}

const dueOrder = (a: JobRow, b: JobRow) => a.due - b.due || a.id - b.id

/**
 * Gives a team other jobs (a snapshot restored): drops the team's jobs from the queue and merges
 * in `replacement` (any order), keeping the queue sorted. In place: the scheduler holds the array.
 */
export function replaceTeamJobs(jobs: JobRow[], team: number, replacement: readonly JobRow[]): void {
  forgetJobIndex(jobs)
  const others = jobs.filter((job) => job.team !== team)
  const incoming = [...replacement].sort(dueOrder)
  jobs.length = 0
  let i = 0
  let j = 0
  while (i < others.length || j < incoming.length) {
    const other = others[i]
    const next = incoming[j]
    if (next === undefined || (other !== undefined && dueOrder(other, next) <= 0)) {
      jobs.push(other as JobRow)
      i++
    } else {
      jobs.push(next)
      j++
    }
  }
}

/**
 * Puts jobs into a queue as insertJob would one by one in the order of their ids (after the jobs
 * due at the same moment), in one pass over the queue.
 */
function mergeJobs(jobs: JobRow[], incoming: JobRow[]): void {
  const sorted = incoming.sort(dueOrder)
  const queued = jobs.splice(0, jobs.length)
  let i = 0
  for (const job of sorted) {
    while (i < queued.length && (queued[i] as JobRow).due <= job.due) jobs.push(queued[i++] as JobRow)
    jobs.push(job)
  }
  while (i < queued.length) jobs.push(queued[i++] as JobRow)
  const index = jobIndexes.get(jobs)
  if (index) for (const job of sorted) index.add(job)
}

/**
 * Jobs by due moment, then id (the order insertJob keeps for jobs scheduled one after another), in
 * a heap. Jobs dropped while in it stay until they come up, and are skipped then.
 */
class DueHeap {
  private readonly heap = new MinHeap<JobRow>((a, b) => dueOrder(a, b) < 0)
  private readonly dropped = new Set<JobRow>()

  /** The soonest job, or undefined. */
  peek(): JobRow | undefined {
    while (this.heap.size > 0 && this.dropped.delete(this.heap.peek() as JobRow)) this.heap.pop()
    return this.heap.peek()
  }

  /** Takes the job peek() answered. */
  pop(): void {
    this.heap.pop()
  }

  push(job: JobRow): void {
    this.heap.push(job)
  }

  drop(job: JobRow): void {
    this.dropped.add(job)
  }

  /** Empties the heap, answering the jobs not dropped (in no order). */
  take(): JobRow[] {
    const live = this.heap.drain().filter((job) => !this.dropped.has(job))
    this.dropped.clear()
    return live
  }
}

/** A run that keeps finding due work this long is a bug (a job rescheduling itself at once), not load. */
const MAX_JOBS_PER_RUN = 1_000_000

export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>()

  /** jobs: the world's persisted queue, kept sorted by due moment (then id). */
  constructor(
    private readonly jobs: JobRow[],
    private readonly clock: Clock,
    private readonly nextId: () => number,
    private readonly onError: (error: unknown, job: JobRow) => void = (error) => console.error(error),
    private readonly log?: JobQueueLog,
  ) {}

  /** The jobs scheduled since holdBeyond(), kept out of the queue until release(). */
  private held: HeldJobs | undefined
  private horizon = Infinity

  /**
   * Until release(), keeps the jobs scheduled out of the queue: those due by `moment` in a heap,
   * from which they run as the clock reaches them (before the queue's jobs due at the same moment,
   * which were there first), the later ones aside. A seed making a team's history schedules and
   * runs jobs by the hundred thousand (every check's result, every reminder) and never runs past
   * its epoch: in the sorted queue each would move the jobs due after it, and most of what it
   * schedules (expiries years away, the next reminders) falls after the epoch.
   */
  holdBeyond(moment: number): void {
    this.horizon = moment
    this.held = { soon: new DueHeap(), soonAbout: new JobsAbout(), later: new JobsAbout() }
  }

  /** Puts the held jobs into the queue, where scheduling them would have put them. */
  release(): void {
    const held = this.held
    this.held = undefined
    this.horizon = Infinity
    if (held) mergeJobs(this.jobs, [...held.soon.take(), ...held.later.all()])
  }

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
  }

  schedule(kind: string, team: number, subject: number, due: Date): JobRow {
    const job: JobRow = { id: this.nextId(), kind, team, subject, due: due.getTime() }
    const held = this.held
    if (!held) insertJob(this.jobs, job)
    else if (job.due > this.horizon) held.later.add(job)
    else {
      held.soon.push(job)
      held.soonAbout.add(job)
    }
    this.log?.added(job)
    return job
  }

  /** Drops one job that schedule() answered, found by its moment (a search, not a walk through the queue). */
  unschedule(job: JobRow): void {
    if (this.dropHeld(job.kind, job.team, job.subject, (held) => held.id === job.id)) {
      this.log?.removed(job)
      return
    }
    for (let index = firstAfter(this.jobs, job.due - 1); index < this.jobs.length && (this.jobs[index] as JobRow).due === job.due; index++) {
      if ((this.jobs[index] as JobRow).id === job.id) {
        unindexJob(this.jobs, this.jobs[index] as JobRow)
        this.jobs.splice(index, 1)
        this.log?.removed(job)
        return
      }
    }
  }

  /** Drops the jobs of a kind about a subject (a record's expiry moved, a reminder was switched off). */
  cancel(kind: string, team: number, subject: number): void {
    this.dropHeld(kind, team, subject, (job) => {
      this.log?.removed(job)
      return true
    })
    const index = jobIndex(this.jobs)
    const jobs = index.get(kind, team, subject)
    if (!jobs) return
    index.delete(kind, team, subject)
    for (const job of jobs) {
      const at = positionOf(this.jobs, job)
      if (at < 0) continue
      this.jobs.splice(at, 1)
      this.log?.removed(job)
    }
  }

  /** Drops the held jobs about a subject that `which` picks; answers whether it dropped any. */
  private dropHeld(kind: string, team: number, subject: number, which: (job: JobRow) => boolean): boolean {
    const held = this.held
    if (!held) return false
    let dropped = false
    for (const about of [held.soonAbout, held.later]) {
      for (const job of [...(about.get(kind, team, subject) ?? [])]) {
        if (!which(job)) continue
        about.remove(job)
        if (about === held.soonAbout) held.soon.drop(job)
        dropped = true
      }
    }
    return dropped
  }

  /** The jobs waiting, soonest first (read-only). */
  pending(): readonly JobRow[] {
    return this.jobs
  }

  /** Runs every job due by now, each with the clock at its own moment. Returns how many ran. */
  runDue(): number {
    const next = Math.min(this.jobs[0]?.due ?? Infinity, this.held?.soon.peek()?.due ?? Infinity)
    if (next === Infinity) return 0
    const now = this.clock.nowMs()
    if (next > now) return 0
    const ran = this.log ? this.log.unit(() => this.runUntil(now)) : this.runUntil(now)
    this.clock.set(new Date(now))
    return ran
  }

  /** Moves the clock forward, running each job as its moment comes. Returns how many ran. */
  advance(milliseconds: number): number {
    const target = this.clock.nowMs() + milliseconds
    const ran = this.log ? this.log.unit(() => this.runUntil(target)) : this.runUntil(target)
    this.clock.set(new Date(target))
    return ran
  }

  private runUntil(moment: number): number {
    if (moment > this.horizon) this.release()
    let ran = 0
    for (let job = this.takeDue(moment); job !== undefined; job = this.takeDue(moment)) {
      if (++ran > MAX_JOBS_PER_RUN) throw new Error(`scheduler: more than ${MAX_JOBS_PER_RUN} jobs due at once`)
      this.log?.removed(job)
      // Results, reminders and expiry carry the moment they were due, not the moment they ran.
      this.clock.set(new Date(job.due))
      const handler = this.handlers.get(job.kind)
      try {
        if (!handler) throw new Error(`scheduler: no handler for job kind ${job.kind}`)
        handler(job)
      } catch (error) {
        this.onError(error, job)
      }
    }
    return ran
  }

  /** The soonest job due by `moment`, taken from the held heap or the queue (the queue's first at the same moment), or undefined. */
  private takeDue(moment: number): JobRow | undefined {
    const queued = this.jobs[0]
    const held = this.held
    const soon = held?.soon.peek()
    if (held && soon !== undefined && soon.due <= moment && (queued === undefined || soon.due < queued.due)) {
      held.soon.pop()
      held.soonAbout.remove(soon)
      return soon
    }
    if (queued === undefined || queued.due > moment) return undefined
    this.jobs.shift()
    unindexJob(this.jobs, queued)
    return queued
  }
}
