// GET answers kept whole while nothing they could say has changed. A list polled, or a page walked
// again, is the same answer until something writes, so the operation need not look it up, present
// it and match it against the kept JSON again (GET /clients?limit=25: most of the mock's time).
//
// What an answer says depends on the world's rows, who asks (team, user, role), the URL (query and
// origin: links), and the clock, read to the second. So an answer is kept by operation, caller and
// URL, stamped with the world's change count and the clock's second, and used again only while
// both are the same. The count is bumped when anything that may change a row starts and again when
// it ends: a request that may write (the API's writes, every request of the control API, OAuth and
// the pages), a run of due jobs, a webhook attempt, a world read back. An answer made while a write
// was under way carries the count of its start, which its end moves on.

/** Kept answers' bytes (and keys), in all, before the cache starts again. */
const MAX_KEPT_BYTES = 4 * 1024 * 1024

/** How many times the world may have changed: what a kept answer was made at. */
export class ChangeCount {
  value = 0

  /** Runs work that may change the world: the count moves on before it, and again once it has ended (a promise settled). */
  during<T>(work: () => T): T {
    this.value++
    let result: T
    try {
      result = work()
    } catch (error) {
      this.value++
      throw error
    }
    if (result instanceof Promise) return result.finally(() => this.value++) as T
    this.value++
    return result
  }

  /** The world changed outside any work (read back from its files). */
  bump(): void {
    this.value++
  }
}

interface KeptAnswer {
  bytes: Buffer
  changes: number
  moment: string
}

/** The moment an answer is asked, which it is kept with. */
export interface AnswerStamp {
  changes: number
  moment: string
}

export class AnswerCache {
  private readonly kept = new Map<string, KeptAnswer>()
  private keptBytes = 0

  /**
   * changes: the world's count; moment: the clock's time as answers read it, to the second (an
   * answer presented with the clock, as a record's status, is the same within one).
   */
  constructor(
    private readonly changes: ChangeCount,
    private readonly moment: () => string,
  ) {}

  stamp(): AnswerStamp {
    return { changes: this.changes.value, moment: this.moment() }
  }

  /** The answer kept under `key`, if nothing has changed since it was made. */
  find(key: string): Buffer | undefined {
    const found = this.kept.get(key)
    if (found === undefined || found.changes !== this.changes.value || found.moment !== this.moment()) return undefined
    return found.bytes
  }

  /** Keeps an answer made at `stamp` (taken before the operation looked anything up). */
  keep(key: string, bytes: Buffer, stamp: AnswerStamp): void {
    const size = bytes.length + key.length
    const earlier = this.kept.get(key)
    if (earlier !== undefined) this.keptBytes -= earlier.bytes.length + key.length
    if (this.keptBytes + size > MAX_KEPT_BYTES) {
      this.kept.clear()
      this.keptBytes = 0
    }
    this.kept.set(key, { bytes, changes: stamp.changes, moment: stamp.moment })
    this.keptBytes += size
  }
}
