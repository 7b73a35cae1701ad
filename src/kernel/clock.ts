// The one source of "now" for the whole mock. Resources never call new Date() or Date.now():
// tests and CI runs freeze the clock, and the control API advances it.
// Function properties, not methods: they are passed around unbound (clock.timestamp).
export interface Clock {
  now: () => Date
  /** Now in milliseconds since the epoch: what now().getTime() says, without a Date (every request reads it). */
  nowMs: () => number
  /** Wire timestamp of now: YYYY-MM-DDTHH:MM:SSZ. */
  timestamp: () => string
  /** Today's UTC date: YYYY-MM-DD. */
  today: () => string
  /** Moves the clock forward (or back, with a negative value). */
  advance: (milliseconds: number) => void
  /** Jumps the clock to a moment; a ticking clock keeps ticking from there. */
  set: (moment: Date) => void
  /** Stops the clock where it is: from then on it moves only when advanced or set. */
  freeze: () => void
  /** Lets a frozen clock tick again with real time, from where it stood. */
  unfreeze: () => void
  readonly frozen: boolean
}

export interface ClockOptions {
  /** Where the clock starts (default: the system time). */
  start?: Date
  /** A frozen clock only moves when advanced or set (tests); otherwise it ticks with the system. */
  frozen?: boolean
}

const DAY_MS = 86_400_000
// The character codes of 0 to 99 written in two digits: the tens, then the units.
const TENS = Array.from({ length: 100 }, (_, value) => 48 + Math.floor(value / 10))
const UNITS = Array.from({ length: 100 }, (_, value) => 48 + (value % 10))
const [DASH, COLON, T, Z] = ['-', ':', 'T', 'Z'].map((character) => character.charCodeAt(0)) as [number, number, number, number]

/** 2026-01-02T03:04:05.678Z -> 2026-01-02T03:04:05Z */
export function toTimestamp(moment: Date): string {
  const ms = moment.getTime()
  const days = Math.floor(ms / DAY_MS)
  // The civil date of a day number (H. Hinnant's civil_from_days), worked out in place of
  // toISOString, which was a tenth of making a large team: a seed formats millions of moments.
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365)
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  // Years toISOString writes otherwise (a sign, six digits), and an invalid date (its RangeError).
  if (!(year >= 0 && year <= 9999)) return `${moment.toISOString().slice(0, -5)}Z`
  const seconds = Math.floor((ms - days * DAY_MS) / 1000)
  const minutes = Math.floor(seconds / 60)
  const century = Math.floor(year / 100)
  const ofCentury = year % 100
  const hour = Math.floor(minutes / 60)
  const minute = minutes % 60
  const second = seconds % 60
  // Made from its character codes at once, the text is one flat string of 40 bytes; pieces joined
  // stay pieces in V8 (about 110 bytes; rows keep millions), and flattening them (normalize())
  // took three times as long as this.
  return String.fromCharCode(
    TENS[century] as number, UNITS[century] as number, TENS[ofCentury] as number, UNITS[ofCentury] as number, DASH,
    TENS[month] as number, UNITS[month] as number, DASH, TENS[day] as number, UNITS[day] as number, T,
    TENS[hour] as number, UNITS[hour] as number, COLON, TENS[minute] as number, UNITS[minute] as number, COLON,
    TENS[second] as number, UNITS[second] as number, Z,
  )
}

/** Whether a string has the one shape toTimestamp writes (a data file edited by hand may hold others). */
export function isWireTimestamp(value: string): boolean {
  return WIRE_TIMESTAMP.test(value)
}
const WIRE_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

export function toDate(moment: Date): string {
  return toTimestamp(moment).slice(0, 10)
}

/** The clock's moment formatted, formatted again only once it enters another unit (a second, a day). */
function formattedOncePer(unitMs: number, format: (moment: Date) => string, nowMs: () => number): () => string {
  let unit = Number.NaN
  let text = ''
  return () => {
    const ms = nowMs()
    const current = Math.floor(ms / unitMs)
    if (current !== unit) {
      text = format(new Date(ms))
      unit = current
    }
    return text
  }
}

export function createClock(options: ClockOptions = {}): Clock {
  let frozen = options.frozen ?? false
  let offset = options.start ? options.start.getTime() - Date.now() : 0
  let frozenAt = options.start?.getTime() ?? Date.now()
  const nowMs = () => (frozen ? frozenAt : Date.now() + offset)
  // A request reads the wire timestamp or today's date several times (and so does every request
  // after it in the same second): each is formatted once per second, or once per day, of the clock.
  const timestamp = formattedOncePer(1000, toTimestamp, nowMs)
  const today = formattedOncePer(86_400_000, toDate, nowMs)
  return {
    get frozen() {
      return frozen
    },
    now: () => new Date(nowMs()),
    nowMs,
    timestamp,
    today,
    advance(milliseconds) {
      if (frozen) frozenAt += milliseconds
      else offset += milliseconds
    },
    set(moment) {
      if (frozen) frozenAt = moment.getTime()
      else offset = moment.getTime() - Date.now()
    },
    freeze() {
      frozenAt = nowMs()
      frozen = true
    },
    unfreeze() {
      offset = nowMs() - Date.now()
      frozen = false
    },
  }
}
