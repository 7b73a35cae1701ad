// The mock's clock: frozen (tests) or ticking with the system. The system time is faked with
// vitest's Date mock, so a ticking clock is checked without waiting.
import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createClock, toDate, toTimestamp } from '../../src/kernel/clock.ts'

const SYSTEM = new Date('2030-03-10T08:00:00.000Z')
const START = new Date('2026-07-01T12:00:00.000Z')

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(SYSTEM)
})

afterEach(() => {
  vi.useRealTimers()
})

/** Moves the (faked) system time on. */
const systemAdvance = (ms: number) => vi.setSystemTime(new Date(Date.now() + ms))

describe('toTimestamp and toDate', () => {
  it('formats a moment as YYYY-MM-DDTHH:MM:SSZ, dropping milliseconds', () => {
    expect(toTimestamp(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02T03:04:05Z')
    expect(toTimestamp(new Date('2026-01-02T03:04:05.999Z'))).toBe('2026-01-02T03:04:05Z')
    expect(toTimestamp(new Date('2026-01-02T03:04:05Z'))).toBe('2026-01-02T03:04:05Z')
  })

  it('is always UTC', () => {
    expect(toTimestamp(new Date('2026-01-02T01:30:00+02:00'))).toBe('2026-01-01T23:30:00Z')
  })

  it("writes what the moment's ISO text says to the second (and to the day), for any moment of years 0 to 9999 (seeded runs)", () => {
    const moment = fc.date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
    fc.assert(
      fc.property(moment, (at) => {
        expect(toTimestamp(at)).toBe(`${at.toISOString().slice(0, 19)}Z`)
        expect(toDate(at)).toBe(at.toISOString().slice(0, 10))
      }),
      { seed: 41, numRuns: 2000 },
    )
  })

  it('knows leap days, the ends of days, months and years', () => {
    for (const at of ['2024-02-29T23:59:59.999Z', '2000-02-29T00:00:00.000Z', '1900-02-28T12:00:00.000Z', '1900-03-01T00:00:00.000Z', '2026-12-31T23:59:59.999Z', '2027-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '1970-01-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      expect(toTimestamp(new Date(at))).toBe(`${at.slice(0, 19)}Z`)
    }
  })

  it('writes a year outside 0 to 9999 as toISOString does, signed, and refuses an invalid date', () => {
    expect(toTimestamp(new Date('+012026-01-02T03:04:05.678Z'))).toBe('+012026-01-02T03:04:05Z')
    expect(toTimestamp(new Date('-000001-12-31T23:59:59.999Z'))).toBe('-000001-12-31T23:59:59Z')
    expect(() => toTimestamp(new Date(Number.NaN))).toThrow(RangeError)
  })

  it('formats the UTC date as YYYY-MM-DD', () => {
    expect(toDate(new Date('2026-01-02T03:04:05.678Z'))).toBe('2026-01-02')
    expect(toDate(new Date('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31')
    expect(toDate(new Date('2026-01-01T00:30:00+01:00'))).toBe('2025-12-31')
    expect(toDate(new Date('+012026-01-02T03:04:05.678Z'))).toBe('+012026-01')
    expect(() => toDate(new Date(Number.NaN))).toThrow(RangeError)
  })
})

describe('a frozen clock', () => {
  it('stays at its start while the system time moves', () => {
    const clock = createClock({ start: START, frozen: true })
    expect(clock.frozen).toBe(true)
    systemAdvance(3_600_000)
    expect(clock.now()).toEqual(START)
    expect(clock.timestamp()).toBe('2026-07-01T12:00:00Z')
    expect(clock.today()).toBe('2026-07-01')
  })

  it('starts at the system time without a start', () => {
    const clock = createClock({ frozen: true })
    systemAdvance(5_000)
    expect(clock.now()).toEqual(SYSTEM)
  })

  it('moves only when advanced, forwards or back', () => {
    const clock = createClock({ start: START, frozen: true })
    clock.advance(90_000)
    expect(clock.timestamp()).toBe('2026-07-01T12:01:30Z')
    clock.advance(12 * 3_600_000)
    expect(clock.today()).toBe('2026-07-02')
    clock.advance(-12 * 3_600_000 - 90_000)
    expect(clock.now()).toEqual(START)
  })

  it('jumps when set, and stays there', () => {
    const clock = createClock({ start: START, frozen: true })
    clock.set(new Date('2027-02-03T04:05:06.789Z'))
    systemAdvance(60_000)
    expect(clock.now()).toEqual(new Date('2027-02-03T04:05:06.789Z'))
    expect(clock.timestamp()).toBe('2027-02-03T04:05:06Z')
    expect(clock.today()).toBe('2027-02-03')
  })

  it('returns a new Date each time, so callers cannot move it', () => {
    const clock = createClock({ start: START, frozen: true })
    clock.now().setTime(0)
    expect(clock.now()).toEqual(START)
  })
})

describe('a ticking clock', () => {
  it('is not frozen by default and follows the system time', () => {
    const clock = createClock()
    expect(clock.frozen).toBe(false)
    expect(clock.now()).toEqual(SYSTEM)
    systemAdvance(2_500)
    expect(clock.now()).toEqual(new Date(SYSTEM.getTime() + 2_500))
  })

  it('ticks on from its start', () => {
    const clock = createClock({ start: START })
    expect(clock.now()).toEqual(START)
    systemAdvance(61_000)
    expect(clock.timestamp()).toBe('2026-07-01T12:01:01Z')
  })

  it('keeps ticking after an advance', () => {
    const clock = createClock({ start: START })
    clock.advance(86_400_000)
    expect(clock.today()).toBe('2026-07-02')
    systemAdvance(1_000)
    expect(clock.now()).toEqual(new Date(START.getTime() + 86_400_000 + 1_000))
  })

  it('keeps ticking from a moment it is set to', () => {
    const clock = createClock({ start: START })
    systemAdvance(10_000)
    clock.set(new Date('2028-01-01T00:00:00Z'))
    expect(clock.timestamp()).toBe('2028-01-01T00:00:00Z')
    systemAdvance(30_000)
    expect(clock.timestamp()).toBe('2028-01-01T00:00:30Z')
  })
})

describe('freezing and unfreezing', () => {
  it('freezes a ticking clock where it stands', () => {
    const clock = createClock({ start: START })
    systemAdvance(7_000)
    clock.freeze()
    expect(clock.frozen).toBe(true)
    systemAdvance(3_600_000)
    expect(clock.now()).toEqual(new Date(START.getTime() + 7_000))
    clock.advance(60_000)
    expect(clock.now()).toEqual(new Date(START.getTime() + 67_000))
  })

  it('lets a frozen clock tick on from where it stood, without jumping to the system time', () => {
    const clock = createClock({ start: START, frozen: true })
    systemAdvance(3_600_000)
    clock.advance(5_000)
    clock.unfreeze()
    expect(clock.frozen).toBe(false)
    expect(clock.now()).toEqual(new Date(START.getTime() + 5_000))
    systemAdvance(2_000)
    expect(clock.now()).toEqual(new Date(START.getTime() + 7_000))
  })

  it('changes nothing when frozen twice or unfrozen twice', () => {
    const clock = createClock({ start: START })
    clock.freeze()
    systemAdvance(1_000)
    clock.freeze()
    expect(clock.now()).toEqual(START)
    clock.unfreeze()
    clock.unfreeze()
    systemAdvance(1_000)
    expect(clock.now()).toEqual(new Date(START.getTime() + 1_000))
  })
})
