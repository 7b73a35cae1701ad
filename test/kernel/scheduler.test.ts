// The scheduler: work due later runs when the mock's clock reaches it, each job at its own moment.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createClock, toTimestamp } from '../../src/kernel/clock.ts'
import { forgetJobQueue, replaceTeamJobs, Scheduler, type JobRow } from '../../src/kernel/scheduler.ts'

const START = new Date('2026-07-01T12:00:00Z')
const after = (seconds: number) => new Date(START.getTime() + seconds * 1000)

function setup(frozen = true) {
  const jobs: JobRow[] = []
  const clock = createClock({ start: START, frozen })
  let id = 0
  const errors: unknown[] = []
  const scheduler = new Scheduler(jobs, clock, () => ++id, (error) => errors.push(error))
  const ran: Array<[string, number, string]> = []
  scheduler.on('note', (job) => ran.push([job.kind, job.subject, clock.timestamp()]))
  return { jobs, clock, scheduler, ran, errors }
}

describe('Scheduler', () => {
  it('keeps its jobs in the persisted array and takes them soonest first, ties in the order they were scheduled', () => {
    const { jobs, scheduler } = setup()
    scheduler.schedule('note', 1, 30, after(30))
    scheduler.schedule('note', 1, 10, after(10))
    scheduler.schedule('note', 1, 11, after(10))
    expect(scheduler.pending()).toBe(jobs)
    expect(jobs.map((job) => job.subject).sort()).toEqual([10, 11, 30])
    expect(scheduler.next()?.subject).toBe(10)
    expect(scheduler.soonest(() => true).map((job) => job.subject)).toEqual([10, 11, 30])
  })

  it('runs nothing before its moment, then each job with the clock at its own moment', () => {
    const { clock, scheduler, ran } = setup()
    scheduler.schedule('note', 1, 1, after(60))
    scheduler.schedule('note', 1, 2, after(120))
    expect(scheduler.advance(59_000)).toBe(0)
    expect(scheduler.advance(100_000)).toBe(2)
    expect(ran).toEqual([
      ['note', 1, toTimestamp(after(60))],
      ['note', 2, toTimestamp(after(120))],
    ])
    expect(clock.timestamp()).toBe(toTimestamp(after(159)))
  })

  it('runs jobs that jobs schedule on the way, when they fall within the advance', () => {
    const { scheduler, ran } = setup()
    scheduler.on('chain', (job) => {
      ran.push(['chain', job.subject, ''])
      if (job.subject < 3) scheduler.schedule('chain', 1, job.subject + 1, new Date(job.due + 10_000))
    })
    scheduler.schedule('chain', 1, 1, after(10))
    expect(scheduler.advance(25_000)).toBe(2)
    expect(ran.map(([, subject]) => subject)).toEqual([1, 2])
    expect(scheduler.advance(5_000)).toBe(1)
  })

  it('runs what is due by now on runDue and puts the clock back to now', () => {
    const { clock, scheduler, ran } = setup()
    scheduler.schedule('note', 1, 1, after(-30))
    expect(scheduler.runDue()).toBe(1)
    expect(ran).toEqual([['note', 1, toTimestamp(after(-30))]])
    expect(clock.timestamp()).toBe(toTimestamp(START))
    expect(scheduler.runDue()).toBe(0)
  })

  it('cancels the jobs of a kind about a subject only', () => {
    const { scheduler } = setup()
    scheduler.schedule('note', 1, 5, after(10))
    scheduler.schedule('note', 2, 5, after(10))
    scheduler.schedule('other', 1, 5, after(10))
    scheduler.cancel('note', 1, 5)
    expect(scheduler.pending().map((job) => [job.kind, job.team])).toEqual([
      ['note', 2],
      ['other', 1],
    ])
  })

  it('reports a failing job or an unknown kind and goes on with the rest', () => {
    const { scheduler, ran, errors } = setup()
    scheduler.on('boom', () => {
      throw new Error('boom')
    })
    scheduler.schedule('boom', 1, 1, after(1))
    scheduler.schedule('nobody', 1, 2, after(2))
    scheduler.schedule('note', 1, 3, after(3))
    expect(scheduler.advance(5_000)).toBe(3)
    expect(errors.map((error) => (error as Error).message)).toEqual(['boom', 'scheduler: no handler for job kind nobody'])
    expect(ran.map(([, subject]) => subject)).toEqual([3])
    expect(scheduler.pending()).toEqual([])
  })
})

describe('Scheduler.holdBeyond', () => {
  /** The same schedules, cancels and runs, on a scheduler that holds the jobs after `horizon` seconds aside and on one that does not. */
  function play(holdAfter: number | undefined) {
    const { scheduler, ran } = setup()
    scheduler.schedule('note', 1, 1, after(500))
    if (holdAfter !== undefined) scheduler.holdBeyond(after(holdAfter).getTime())
    scheduler.schedule('note', 1, 2, after(400))
    scheduler.schedule('note', 1, 3, after(50))
    scheduler.schedule('note', 1, 4, after(500))
    scheduler.schedule('note', 1, 5, after(400))
    const dropped = scheduler.schedule('note', 1, 6, after(300))
    scheduler.schedule('note', 2, 5, after(600))
    scheduler.cancel('note', 1, 5)
    scheduler.unschedule(dropped)
    scheduler.advance(100_000)
    if (holdAfter !== undefined) scheduler.release()
    return { jobs: scheduler.soonest(() => true).map((job) => [job.id, job.subject, job.due]), ran }
  }

  it('keeps later jobs out of the queue until released, then puts them where scheduling would have, cancels included', () => {
    const { jobs, scheduler } = setup()
    scheduler.holdBeyond(after(100).getTime())
    scheduler.schedule('note', 1, 1, after(400))
    scheduler.schedule('note', 1, 2, after(50))
    expect(jobs).toEqual([])
    scheduler.release()
    expect(scheduler.soonest(() => true).map((job) => job.subject)).toEqual([2, 1])
    expect(play(100)).toEqual(play(undefined))
  })

  it('runs the held jobs due by its horizon as the queue would, after the queued jobs due at the same moment', () => {
    expect(play(1000)).toEqual(play(undefined))
    const { scheduler, ran } = setup()
    scheduler.schedule('note', 1, 1, after(20))
    scheduler.holdBeyond(after(1000).getTime())
    scheduler.schedule('note', 1, 2, after(20))
    scheduler.schedule('note', 1, 3, after(10))
    expect(scheduler.runDue()).toBe(0)
    scheduler.advance(20_000)
    expect(ran.map(([, subject]) => subject)).toEqual([3, 1, 2])
  })

  it('releases what it holds before running past its horizon', () => {
    expect(play(30)).toEqual(play(undefined))
    const { scheduler, ran } = setup()
    scheduler.holdBeyond(after(100).getTime())
    scheduler.schedule('note', 1, 7, after(200))
    scheduler.advance(300_000)
    expect(ran).toEqual([['note', 7, toTimestamp(after(200))]])
  })
})

describe('replaceTeamJobs', () => {
  it("gives one team other jobs, in place, the queue still soonest first and other teams' jobs as they were", () => {
    const { jobs, scheduler, ran, clock } = setup()
    scheduler.schedule('note', 1, 1, after(10))
    scheduler.schedule('note', 2, 2, after(20))
    scheduler.schedule('note', 1, 3, after(30))
    scheduler.schedule('note', 2, 4, after(40))
    const queue = jobs
    const restored: JobRow[] = [
      { id: 7, kind: 'note', team: 1, subject: 7, due: after(50).getTime() },
      { id: 5, kind: 'note', team: 1, subject: 5, due: after(5).getTime() },
      { id: 6, kind: 'note', team: 1, subject: 6, due: after(20).getTime() },
    ]
    replaceTeamJobs(jobs, 1, restored)
    expect(jobs).toBe(queue)
    expect(scheduler.soonest(() => true).map((job) => [job.team, job.subject])).toEqual([
      [1, 5],
      [2, 2],
      [1, 6],
      [2, 4],
      [1, 7],
    ])
    scheduler.advance(60_000)
    expect(ran.map(([, subject, at]) => [subject, at])).toEqual([
      [5, toTimestamp(after(5))],
      [2, toTimestamp(after(20))],
      [6, toTimestamp(after(20))],
      [4, toTimestamp(after(40))],
      [7, toTimestamp(after(50))],
    ])
    expect(clock.timestamp()).toBe(toTimestamp(after(60)))
  })
})

describe('the queue against a sorted list', () => {
  type Op =
    | { op: 'schedule'; team: number; subject: number; seconds: number }
    | { op: 'cancel'; team: number; subject: number }
    | { op: 'unschedule'; pick: number; copy: boolean }
    | { op: 'advance'; seconds: number }
    | { op: 'replace'; team: number; seconds: number[] }
    | { op: 'reload' }
  const team = fc.integer({ min: 1, max: 3 })
  const subject = fc.integer({ min: 1, max: 6 })
  const seconds = fc.integer({ min: 0, max: 120 })
  const op: fc.Arbitrary<Op> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('schedule' as const), team, subject, seconds }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('cancel' as const), team, subject }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('unschedule' as const), pick: fc.nat(), copy: fc.boolean() }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 60 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('replace' as const), team, seconds: fc.array(seconds, { maxLength: 4 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('reload' as const) }) },
  )

  it('runs, keeps, drops, finds by subject and lists the soonest of the same jobs as a list kept sorted by due moment and id would, over seeded runs', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const { jobs, clock, scheduler, ran } = setup()
        let model: JobRow[] = []
        const byDue = (a: JobRow, b: JobRow) => a.due - b.due || a.id - b.id
        let nextRestoredId = 1_000_000
        for (const step of ops) {
          const now = clock.nowMs()
          if (step.op === 'schedule') {
            model.push(scheduler.schedule('note', step.team, step.subject, new Date(now + step.seconds * 1000)))
          } else if (step.op === 'cancel') {
            scheduler.cancel('note', step.team, step.subject)
            model = model.filter((job) => !(job.team === step.team && job.subject === step.subject))
          } else if (step.op === 'unschedule') {
            const job = model[step.pick % Math.max(1, model.length)]
            if (!job) continue
            scheduler.unschedule(step.copy ? { ...job } : job)
            model = model.filter((other) => other.id !== job.id)
          } else if (step.op === 'advance') {
            const target = now + step.seconds * 1000
            const due = model.filter((job) => job.due <= target).sort(byDue)
            ran.length = 0
            expect(scheduler.advance(step.seconds * 1000)).toBe(due.length)
            expect(ran.map(([, subject, at]) => [subject, at])).toEqual(due.map((job) => [job.subject, toTimestamp(new Date(job.due))]))
            model = model.filter((job) => job.due > target)
          } else if (step.op === 'replace') {
            const restored = step.seconds.map((offset) => ({ id: nextRestoredId++, kind: 'note', team: step.team, subject: 1, due: now + offset * 1000 }))
            replaceTeamJobs(jobs, step.team, restored)
            model = [...model.filter((job) => job.team !== step.team), ...restored]
          } else {
            // A world read back from its file: the same jobs, in another order.
            jobs.reverse()
            forgetJobQueue(jobs)
          }
          expect(scheduler.soonest(() => true).map((job) => job.id)).toEqual([...model].sort(byDue).map((job) => job.id))
          expect(scheduler.next()?.id).toBe([...model].sort(byDue)[0]?.id)
          const ofTeam = [...model].filter((job) => job.team === 1).sort(byDue)
          expect(scheduler.soonest((job) => job.team === 1, 3).map((job) => job.id)).toEqual(ofTeam.slice(0, 3).map((job) => job.id))
          expect(scheduler.about(1, [['note', 2], ['note', 5]]).map((job) => job.id)).toEqual(ofTeam.filter((job) => job.subject === 2 || job.subject === 5).map((job) => job.id))
        }
        // What is left runs soonest first.
        ran.length = 0
        scheduler.advance(1_000_000_000)
        expect(ran.map(([, subject, at]) => [subject, at])).toEqual([...model].sort(byDue).map((job) => [job.subject, toTimestamp(new Date(job.due))]))
      }),
      { seed: 1_127, numRuns: 300 },
    )
  })

  it('takes jobs out from anywhere in the queue and still runs the rest soonest first, over seeded runs', () => {
    const plan = fc.record({
      dues: fc.array(fc.integer({ min: 0, max: 10_000 }), { minLength: 1, maxLength: 300 }),
      dropped: fc.array(fc.nat(), { maxLength: 150 }),
    })
    fc.assert(
      fc.property(plan, ({ dues, dropped }) => {
        const { scheduler, ran } = setup()
        let waiting = dues.map((seconds, subject) => scheduler.schedule('note', 1, subject, after(seconds)))
        for (const pick of dropped) {
          const job = waiting[pick % waiting.length]
          if (!job) break
          scheduler.unschedule(job)
          waiting = waiting.filter((other) => other !== job)
        }
        scheduler.advance(20_000_000)
        const order = waiting.sort((a, b) => a.due - b.due || a.id - b.id)
        expect(ran.map(([, subject]) => subject)).toEqual(order.map((job) => job.subject))
      }),
      { seed: 2_611, numRuns: 200 },
    )
  })
})
