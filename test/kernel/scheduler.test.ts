// The scheduler: work due later runs when the mock's clock reaches it, each job at its own moment.
import { describe, expect, it } from 'vitest'
import { createClock, toTimestamp } from '../../src/kernel/clock.ts'
import { replaceTeamJobs, Scheduler, type JobRow } from '../../src/kernel/scheduler.ts'

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
  it('keeps its queue soonest first, in the persisted array, ties in the order they were scheduled', () => {
    const { jobs, scheduler } = setup()
    scheduler.schedule('note', 1, 30, after(30))
    scheduler.schedule('note', 1, 10, after(10))
    scheduler.schedule('note', 1, 11, after(10))
    expect(jobs.map((job) => job.subject)).toEqual([10, 11, 30])
    expect(scheduler.pending()).toBe(jobs)
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
    const { jobs, scheduler, ran } = setup()
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
    return { jobs: jobs.map((job) => [job.id, job.subject, job.due]), ran }
  }

  it('keeps later jobs out of the queue until released, then puts them where scheduling would have, cancels included', () => {
    const { jobs, scheduler } = setup()
    scheduler.holdBeyond(after(100).getTime())
    scheduler.schedule('note', 1, 1, after(400))
    scheduler.schedule('note', 1, 2, after(50))
    expect(jobs.map((job) => job.subject)).toEqual([])
    scheduler.release()
    expect(jobs.map((job) => job.subject)).toEqual([2, 1])
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
  it("gives one team other jobs, in place, keeping the queue soonest first and other teams' jobs as they were", () => {
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
    expect(jobs.map((job) => [job.team, job.subject])).toEqual([
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
