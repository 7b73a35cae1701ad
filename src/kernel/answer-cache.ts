// GET answers kept whole while nothing they could say has changed. A list polled, or a page walked
// again, is the same answer until something writes, so the operation need not look it up, present
// it and match it against the kept JSON again (GET /clients?limit=25: most of the mock's time).
//
// What an answer says depends on its team's rows, on the world's own rows (users, memberships,
// the teams themselves), on who asks (team, user, role), on the URL (query and origin: links) and
// on the clock, read to the second. So an answer is kept by operation, caller and URL, stamped
// with its team's change count, the world's change count and the clock's second, and used again
// only while all three are the same. The store moves a count on with every change it makes
// (store/table.ts: a row inserted, updated or deleted), never around a request: a read changes
// nothing, and one team's writes leave another team's answers alone. A stamp is taken before the
// operation reads anything, so an answer made while another request was half-way through its
// changes carries a count that the rest of those changes move on.

/** Kept answers' bytes (and keys), in all, before the cache starts again. */
const MAX_KEPT_BYTES = 4 * 1024 * 1024

/** How many times one team's state (or the world's own rows) has changed. */
export class ChangeCount {
  value = 0

  bump(): void {
    this.value++
  }
}

/** The world's count and each team's. */
export class ChangeCounts {
  /** The world's own rows: users, memberships, teams added, replaced or removed, a world read back. */
  readonly world = new ChangeCount()
  private readonly teams = new Map<number, ChangeCount>()

  /** A team's count (made at its first use, so a team opened again keeps counting where it was). */
  team(id: number): ChangeCount {
    let count = this.teams.get(id)
    if (count === undefined) {
      count = new ChangeCount()
      this.teams.set(id, count)
    }
    return count
  }

  /** A team removed: nothing can ask for its answers again. */
  forget(id: number): void {
    this.teams.delete(id)
  }
}

interface KeptAnswer {
  bytes: Buffer
  team: number
  world: number
  moment: string
}

/** The moment an answer is asked, which it is kept with. */
export interface AnswerStamp {
  team: number
  world: number
  moment: string
}

export class AnswerCache {
  private readonly kept = new Map<string, KeptAnswer>()
  private keptBytes = 0

  /**
   * world: the world's own count (each team's comes with the answer's caller); moment: the clock's
   * time as answers read it, to the second (an answer presented with the clock, as a record's
   * status, is the same within one).
   */
  constructor(
    private readonly world: ChangeCount,
    private readonly moment: () => string,
  ) {}

  /** The stamp of an answer about to be made for the team whose count is `team`. */
  stamp(team: ChangeCount): AnswerStamp {
    return { team: team.value, world: this.world.value, moment: this.moment() }
  }

  /** The answer kept under `key` for the team whose count is `team`, if nothing it could say has changed since it was made. */
  find(key: string, team: ChangeCount): Buffer | undefined {
    const found = this.kept.get(key)
    if (found === undefined || found.team !== team.value || found.world !== this.world.value || found.moment !== this.moment()) return undefined
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
    this.kept.set(key, { bytes, team: stamp.team, world: stamp.world, moment: stamp.moment })
    this.keptBytes += size
  }
}
