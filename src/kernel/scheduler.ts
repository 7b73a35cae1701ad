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

/** What a scheduler holds out of the queue (holdBeyond): the jobs due by its horizon in a queue of their own, and the later ones by subject. */
interface HeldJobs {
  soon: JobQueue
  later: JobsAbout
}

/** What keeps the queue durable (--data): told of every job added and removed, and running each run of due jobs as one write unit. */
export interface JobQueueLog {
  added(job: JobRow): void
  removed(job: JobRow): void
  /** Runs the work as one write unit, committed before it returns. */
  unit<T>(work: () => T): T
}

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

const dueOrder = (a: JobRow, b: JobRow) => a.due - b.due || a.id - b.id

/**
 * A queue's jobs in binary-heap order, the soonest first (by due moment, then id: the order jobs
 * scheduled one after another run in), with each job's place, so that scheduling a job, taking the
 * soonest and dropping any one cost log n; a queue kept sorted moved every job after the place on
 * each (a team of 250,000 records waits on about as many jobs). The array is the world's: --data
 * keeps it as it is, and a heap made from it again is the same queue.
 */
class JobHeap {
  private readonly places = new Map<JobRow, number>()

  /** jobs: the queue's array, kept in heap order (read it, never change it). */
  constructor(readonly jobs: JobRow[]) {
    jobs.forEach((job, index) => this.places.set(job, index))
    for (let index = (jobs.length >>> 1) - 1; index >= 0; index--) this.sink(index)
  }

  /** The soonest job, or undefined. */
  peek(): JobRow | undefined {
    return this.jobs[0]
  }

  push(job: JobRow): void {
    this.jobs.push(job)
    this.swim(this.jobs.length - 1)
  }

  /** Takes the soonest job out of the queue, or undefined when it is empty. */
  pop(): JobRow | undefined {
    const first = this.jobs[0]
    if (first === undefined) return undefined
    this.places.delete(first)
    const last = this.jobs.pop() as JobRow
    if (this.jobs.length > 0) {
      this.jobs[0] = last
      this.sink(0)
    }
    return first
  }

  /** Takes a job out of the queue; answers whether it was in it. */
  remove(job: JobRow): boolean {
    const at = this.places.get(job)
    if (at === undefined) return false
    this.places.delete(job)
    const last = this.jobs.pop() as JobRow
    if (at === this.jobs.length) return true
    this.jobs[at] = last
    this.places.set(last, at)
    if (at > 0 && dueOrder(last, this.jobs[(at - 1) >>> 1] as JobRow) < 0) this.swim(at)
    else this.sink(at)
    return true
  }

  private put(job: JobRow, at: number): void {
    this.jobs[at] = job
    this.places.set(job, at)
  }

  private swim(from: number): void {
    const job = this.jobs[from] as JobRow
    let at = from
    while (at > 0) {
      const parent = (at - 1) >>> 1
      const above = this.jobs[parent] as JobRow
      if (dueOrder(job, above) >= 0) break
      this.put(above, at)
      at = parent
    }
    this.put(job, at)
  }

  private sink(from: number): void {
    const jobs = this.jobs
    const job = jobs[from] as JobRow
    let at = from
    for (;;) {
      let child = 2 * at + 1
      if (child >= jobs.length) break
      if (child + 1 < jobs.length && dueOrder(jobs[child + 1] as JobRow, jobs[child] as JobRow) < 0) child++
      const below = jobs[child] as JobRow
      if (dueOrder(below, job) >= 0) break
      this.put(below, at)
      at = child
    }
    this.put(job, at)
  }
}

/** A queue: its heap, and its jobs by what they are about (so cancelling a record's reminders does not walk it). */
interface JobQueue {
  heap: JobHeap
  about: JobsAbout
}

function queueOver(jobs: JobRow[]): JobQueue {
  const about = new JobsAbout()
  for (const job of jobs) about.add(job)
  return { heap: new JobHeap(jobs), about }
}

/**
 * The queue of a world's jobs array, kept beside it: every Scheduler on the same array shares it.
 * Made when first needed, and made again after the array is changed other than through it.
 */
const jobQueues = new WeakMap<JobRow[], JobQueue>()

/** The queue kept over a world's jobs array. */
function queueOf(jobs: JobRow[]): JobQueue {
  let queue = jobQueues.get(jobs)
  if (!queue) jobQueues.set(jobs, (queue = queueOver(jobs)))
  return queue
}

/** The queue was changed other than through the scheduler (a world reloaded, a log replayed): its heap and index are made again when next needed. */
export function forgetJobQueue(jobs: JobRow[]): void {
  jobQueues.delete(jobs)
}

function enqueue(queue: JobQueue, job: JobRow): void {
  queue.heap.push(job)
  queue.about.add(job)
}

/** Takes the soonest job out of a queue. */
function dequeueFirst(queue: JobQueue): JobRow | undefined {
  const job = queue.heap.pop()
  if (job) queue.about.remove(job)
  return job
}

/** Takes a job out of a queue; answers whether it was in it. */
function dequeue(queue: JobQueue, job: JobRow): boolean {
  if (!queue.heap.remove(job)) return false
  queue.about.remove(job)
  return true
}

/**
 * Gives a team other jobs (a snapshot restored): drops the team's jobs from the queue and adds
 * `replacement`. In place: the scheduler holds the array.
 */
export function replaceTeamJobs(jobs: JobRow[], team: number, replacement: readonly JobRow[]): void {
  const others = jobs.filter((job) => job.team !== team)
  jobs.length = 0
  for (const job of others) jobs.push(job)
  for (const job of replacement) jobs.push(job)
  forgetJobQueue(jobs)
}

/** Adds many jobs to a queue at once: its heap is made again over all of them, in one pass, when next needed. */
function enqueueAll(jobs: JobRow[], incoming: readonly JobRow[]): void {
  for (const job of incoming) jobs.push(job)
  forgetJobQueue(jobs)
}

/** A run that keeps finding due work this long is a bug (a job rescheduling itself at once), not load. */
const MAX_JOBS_PER_RUN = 1_000_000

export class Scheduler {
  private readonly handlers = new Map<string, JobHandler>()

  /** jobs: the world's persisted queue (in heap order: JobHeap). */
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
   * its epoch: most of what it schedules (expiries years away, the next reminders) falls after the
   * epoch, and goes into the queue's heap in one pass at release instead of one place at a time.
   */
  holdBeyond(moment: number): void {
    this.horizon = moment
    this.held = { soon: queueOver([]), later: new JobsAbout() }
  }

  /** Puts the held jobs into the queue, where scheduling them would have put them. */
  release(): void {
    const held = this.held
    this.held = undefined
    this.horizon = Infinity
    if (held) enqueueAll(this.jobs, [...held.soon.heap.jobs, ...held.later.all()])
  }

  on(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler)
  }

  schedule(kind: string, team: number, subject: number, due: Date): JobRow {
    const job: JobRow = { id: this.nextId(), kind, team, subject, due: due.getTime() }
    const held = this.held
    if (!held) enqueue(queueOf(this.jobs), job)
    else if (job.due > this.horizon) held.later.add(job)
    else enqueue(held.soon, job)
    this.log?.added(job)
    return job
  }

  /** Drops one job that schedule() answered (or a copy of it), found among the jobs about its subject. */
  unschedule(job: JobRow): void {
    if (this.dropHeld(job.kind, job.team, job.subject, (held) => held.id === job.id)) {
      this.log?.removed(job)
      return
    }
    const queued = queueOf(this.jobs).about.get(job.kind, job.team, job.subject)?.find((about) => about.id === job.id)
    if (queued && dequeue(queueOf(this.jobs), queued)) this.log?.removed(queued)
  }

  /** Drops the jobs of a kind about a subject (a record's expiry moved, a reminder was switched off). */
  cancel(kind: string, team: number, subject: number): void {
    this.dropHeld(kind, team, subject, (job) => {
      this.log?.removed(job)
      return true
    })
    const queue = queueOf(this.jobs)
    const queued = queue.about.get(kind, team, subject)
    // A copy: dequeue takes each out of the list walked.
    if (queued) for (const job of [...queued]) if (dequeue(queue, job)) this.log?.removed(job)
  }

  /** Drops the held jobs about a subject that `which` picks; answers whether it dropped any. */
  private dropHeld(kind: string, team: number, subject: number, which: (job: JobRow) => boolean): boolean {
    const held = this.held
    if (!held) return false
    let dropped = false
    // Copies: each job dropped is taken out of the list walked.
    const soon = held.soon.about.get(kind, team, subject)
    if (soon) for (const job of [...soon]) if (which(job) && dequeue(held.soon, job)) dropped = true
    const later = held.later.get(kind, team, subject)
    if (later) {
      for (const job of [...later]) {
        if (!which(job)) continue
        held.later.remove(job)
        dropped = true
      }
    }
    return dropped
  }

  /** Every job waiting, in no order (read-only). */
  pending(): readonly JobRow[] {
    return this.jobs
  }

  /** The soonest job waiting, or undefined. */
  next(): JobRow | undefined {
    return queueOf(this.jobs).heap.peek()
  }

  /** The first `count` jobs waiting that `which` picks, soonest first: the queue's heap walked in order, as far as they take. */
  soonest(which: (job: JobRow) => boolean, count = Infinity): JobRow[] {
    // The array in heap order (made so, if the world was changed wholesale since).
    const { jobs } = queueOf(this.jobs).heap
    const picked: JobRow[] = []
    // The heap's places still to visit, soonest first: a place's children come after it.
    const frontier = new MinHeap<number>((a, b) => dueOrder(jobs[a] as JobRow, jobs[b] as JobRow) < 0)
    if (jobs.length > 0) frontier.push(0)
    while (picked.length < count && frontier.size > 0) {
      const at = frontier.pop() as number
      const job = jobs[at] as JobRow
      if (which(job)) picked.push(job)
      for (const child of [2 * at + 1, 2 * at + 2]) if (child < jobs.length) frontier.push(child)
    }
    return picked
  }

  /** The jobs waiting about these subjects (each a kind and a subject, of one team), soonest first: found by subject, not by walking the queue. */
  about(team: number, subjects: ReadonlyArray<readonly [kind: string, subject: number]>): JobRow[] {
    const { about } = queueOf(this.jobs)
    return subjects.flatMap(([kind, subject]) => about.get(kind, team, subject) ?? []).sort(dueOrder)
  }

  /** Runs every job due by now, each with the clock at its own moment. Returns how many ran. */
  runDue(): number {
    const next = Math.min(this.next()?.due ?? Infinity, this.held?.soon.heap.peek()?.due ?? Infinity)
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
    const queued = this.next()
    const held = this.held
    const soon = held?.soon.heap.peek()
    if (held && soon !== undefined && soon.due <= moment && (queued === undefined || soon.due < queued.due)) return dequeueFirst(held.soon)
    if (queued === undefined || queued.due > moment) return undefined
    return dequeueFirst(queueOf(this.jobs))
  }
}
