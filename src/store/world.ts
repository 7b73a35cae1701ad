// The whole mock's state: users and tokens (global, as in the real service), and one isolated
// state per team, chosen by the token. The data is plain JSON, so a data file holds it as it is; the
// Store and each Team add the indexes requests need (tables with a Map by id).
import { ChangeCounts, type ChangeCount } from '../kernel/answer-cache.ts'
import type { Role } from '../kernel/roles.ts'
import { forgetJobQueue, replaceTeamJobs, type JobQueueLog, type JobRow } from '../kernel/scheduler.ts'
import { changed, deleted, inserted, recording, register, sequenceMoved, teamChanged, touched, unregister, type ChangeSink } from './changes.ts'
import { applyChange, type RowChange } from './table.ts'
import type { MemberRow, TeamRow, TokenRow, UserRow } from './identity.ts'

/** Bumped when the stored shape changes, so an old --data file is refused with a clear message. */
export const WORLD_FORMAT = 10

/*
 * The store knows no resource. Each resource declares, in its own tables.ts, the rows it keeps in a
 * team (TeamRows: persisted key -> row array), the tables and indexes it opens on them (TeamTables)
 * and its id sequences (IdSequences), by declaration merging into the interfaces below, and exports
 * a TableDeclaration that src/tables.ts lists: one line per resource.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each resource's tables.ts
export interface TeamRows {}
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by each resource's tables.ts
export interface TeamTables {}
/** Id sequences: the world's own, and each resource's (added by its tables.ts). */
export interface IdSequences {
  user: true
  team: true
  job: true
  snapshot: true
}

/** One team's persisted state: the team, its members, and every resource's rows. */
export type TeamState = { team: TeamRow; members: MemberRow[] } & TeamRows

/** What a resource keeps in each team (see above). */
export interface TableDeclaration {
  /** The keys of the team's state whose rows it owns: a new team starts with them empty. */
  rows: ReadonlyArray<keyof TeamRows>
  /**
   * Its tables and indexes over the team's rows. `team` is the team being opened: the tables of the
   * resources listed before this one (src/tables.ts) are there already, for an index that follows
   * their rows; the others only once the team is open.
   */
  open(state: TeamRows, team: Team): Partial<TeamTables>
  /** A client is being deleted: drops this resource's rows of the client; returns the attachments they held. */
  dropClient?(team: Team, client: number): Iterable<number>
  /** Whether this resource's rows keep a client from being deleted. */
  holdsClient?(team: Team, client: number): boolean
  /** The blob keys (src/store/blobs.ts) this resource's rows point at: a snapshot keeps their bytes. */
  blobs?(state: TeamRows): Iterable<string>
}

/** Checks a resource's declaration where it is written. */
export function declareTables(declaration: TableDeclaration): TableDeclaration {
  return declaration
}

/** A team with nothing in it yet (its tables' arrays are added when it is opened). */
export function newTeamState(team: TeamRow): TeamState {
  return { team, members: [] } as unknown as TeamState
}

/** A team's state with its indexes: its members, and every resource's tables. Change it only through its tables and methods. */
export type Team = TeamMembers & TeamTables

/** A team and its members, opened with every resource's tables. */
class TeamMembers {
  private readonly membersByUser = new Map<number, MemberRow>()

  /**
   * changes: the team's change count, which its tables and its own update methods move on; world:
   * the world's, which a change to the team's row or a membership moves on too where another team
   * shows it (a user's list of teams, GET /me/teams, asked in any of them); memberElsewhere: whether
   * a user is (or was) in another team.
   */
  constructor(
    readonly state: TeamState,
    private readonly declarations: readonly TableDeclaration[],
    sink: ChangeSink | undefined,
    readonly changes: ChangeCount,
    private readonly world: ChangeCount,
    private readonly memberElsewhere: (user: number, team: number) => boolean,
  ) {
    const rows = state as unknown as Record<string, unknown[] | undefined>
    for (const declaration of declarations) {
      for (const key of declaration.rows) rows[key] ??= []
      Object.assign(this, declaration.open(state, this.asTeam))
    }
    for (const member of state.members) this.membersByUser.set(member.user, member)
    if (sink) for (const [key, holder] of recordedParts(state)) register(sink, holder, `${state.team.id}/${key}`)
  }

  get id(): number {
    return this.state.team.id
  }

  get row(): TeamRow {
    return this.state.team
  }

  /** Changes the team's own row (PATCH /team, the control API). */
  updateRow(change: RowChange<TeamRow>): TeamRow {
    applyChange(this.state.team, change)
    if (recording.on) touched(this.state, this.state.team)
    this.changedWorld()
    return this.state.team
  }

  /** Changes a membership (a role, leaving the team). */
  updateMember(member: MemberRow, change: RowChange<MemberRow>): MemberRow {
    if (this.membersByUser.get(member.user) !== member) throw new Error(`team ${this.id}: user ${member.user}'s membership is not this team's`)
    applyChange(member, change)
    if (recording.on) touched(this.state.members, member)
    this.changedWorld()
    return member
  }

  private changedWorld(): void {
    this.changes.bump()
    this.world.bump()
  }

  /** Everyone who is or was in the team (role null: left), in the order they joined. */
  get members(): readonly MemberRow[] {
    return this.state.members
  }

  /** A current member (not someone who left). */
  member(userId: number): MemberRow | undefined {
    const member = this.membersByUser.get(userId)
    return member?.role ? member : undefined
  }

  /** The membership row of anyone who is or was in the team. */
  membership(userId: number): MemberRow | undefined {
    return this.membersByUser.get(userId)
  }

  /** Whether anything of the client keeps it from being deleted (its records: see clients/rules.ts). */
  holdsClient(clientId: number): boolean {
    return this.declarations.some((declaration) => declaration.holdsClient?.(this.asTeam, clientId) === true)
  }

  /**
   * Deletes what belongs to a client being deleted, as each resource declares (its records with
   * everything that hangs off them, its cases, files, client documents, forms and organisation
   * memberships). Returns the ids of the attachments those held, for the caller to delete those
   * nothing else uses (with their bytes).
   */
  removeDependentsOf(clientId: number): Set<number> {
    const held = new Set<number>()
    for (const declaration of this.declarations) for (const id of declaration.dropClient?.(this.asTeam, clientId) ?? []) held.add(id)
    return held
  }

  addMember(user: number, role: Role | null, joinedAt: string): MemberRow {
    if (this.membersByUser.has(user)) throw new Error(`team ${this.id}: user ${user} is a member already`)
    const member: MemberRow = { user, role, joined_at: joinedAt }
    this.state.members.push(member)
    if (recording.on) inserted(this.state.members, member)
    this.membersByUser.set(user, member)
    // A new team's users are new: only a user already in another team shows this one elsewhere.
    if (this.memberElsewhere(user, this.id)) this.changedWorld()
    else this.changes.bump()
    return member
  }

  private get asTeam(): Team {
    return this as unknown as Team
  }
}

function openTeam(state: TeamState, declarations: readonly TableDeclaration[], sink: ChangeSink | undefined, counts: ChangeCounts, memberElsewhere: (user: number, team: number) => boolean): Team {
  return new TeamMembers(state, declarations, sink, counts.team(state.team.id), counts.world, memberElsewhere) as unknown as Team
}

/** What a team's changes are recorded against: its state (for its `team` row) and each array of rows. */
function recordedParts(state: TeamState): Array<[string, object]> {
  const parts: Array<[string, object]> = [['team', state]]
  for (const [key, value] of Object.entries(state)) if (Array.isArray(value)) parts.push([key, value])
  return parts
}

/** The world's own arrays of rows whose changes are recorded, by where they live. */
const WORLD_PLACES = ['users', 'tokens', 'jobs', 'snapshots', 'baselines'] as const

/** Ids are unique across the whole service, like the real one's, so another team's id is a 404. */
export type SequenceName = keyof IdSequences

/** One team's whole state at a moment, as a restore puts it back (src/store/snapshots.ts). */
export interface TeamImage {
  team: number
  /**
   * The team's state (its row, members and every resource's rows) as JSON text: parsing it is the
   * fastest deep copy there is, and a string is compact in memory and in the data file.
   */
  state: string
  /** Rows per key of the state (members, clients, records, ...). */
  rows: Record<string, number>
  /** Copies of the team's jobs on the clock. */
  jobs: JobRow[]
  /** The blob keys its rows point at: their bytes stay while the image does. */
  blobs: string[]
}

/**
 * How a team made by POST /_mock/teams was made, so that a reset makes it again (src/seed/index.ts)
 * instead of keeping a copy of everything it generated. Generation is synchronous and seeded: from
 * the same options, seed, moment and id sequences it makes the same rows with the same ids.
 */
export interface TeamRecipe {
  team: number
  /** The seed its generated data is drawn from. */
  seed: number
  /** The team's uuid (drawn from the world's random). */
  uuid: string
  /** The moment it was made, to the millisecond (ISO 8601). */
  made_at: string
  /** What it was asked for (name, cases, declaration, generated counts). */
  options: TeamRecipeOptions
  /** Every id sequence as it stood just before it was made. */
  sequences: Partial<Record<SequenceName, number>>
  /** The blob keys its generated rows point at: their bytes stay while the recipe does. */
  blobs: string[]
}

export interface TeamRecipeOptions {
  name?: string
  casesEnabled?: boolean
  /** The custom declaration feature (records may require a declaration); off by default. */
  declarationEnabled?: boolean
  /** Generated counts by name (src/seed/generate.ts names them). */
  generate?: Partial<Record<string, number>>
}

/** A snapshot a user took of a team (POST /_mock/teams/{id}/snapshots). */
export interface SnapshotRow extends TeamImage {
  id: number
  name: string | null
  created_at: string
}

export interface WorldData {
  format: typeof WORLD_FORMAT
  seed: number
  sequences: Partial<Record<SequenceName, number>>
  users: UserRow[]
  tokens: TokenRow[]
  teams: TeamState[]
  /** Work due later on the mock's clock (src/kernel/scheduler.ts). */
  jobs: JobRow[]
  /** Snapshots of teams, oldest first. */
  snapshots: SnapshotRow[]
  /**
   * What a reset puts back for each team made since the seed (POST /_mock/teams): how it was made
   * (a recipe), or, in data files written before recipes, a whole image of it. Seeded teams are
   * reset from the seed.
   */
  baselines: Array<TeamRecipe | TeamImage>
}

export interface Identity {
  token: TokenRow
  user: UserRow
  team: Team
  member: MemberRow & { role: Role }
}

export class Store {
  private readonly tokens = new Map<string, TokenRow>()
  private readonly users = new Map<number, UserRow>()
  private readonly teams = new Map<number, Team>()
  /** Where changes are recorded (a --data world); undefined in memory. */
  private sink: ChangeSink | undefined
  private background: <T>(work: () => T) => T = (work) => work()
  /** The world's change count and each team's (kernel/answer-cache.ts), moved on by every change made through the store. */
  readonly changes = new ChangeCounts()

  /** tables: every resource's TableDeclaration (src/tables.ts). */
  constructor(
    readonly data: WorldData,
    readonly tables: readonly TableDeclaration[],
  ) {
    this.open()
  }

  /** Whether a user is, or was, in a team other than `team`. */
  private readonly memberElsewhere = (user: number, team: number): boolean => {
    for (const other of this.teams.values()) if (other.id !== team && other.membership(user)) return true
    return false
  }

  /** Indexes the world's rows (and, when recording, registers where they live). */
  private open(): void {
    this.users.clear()
    this.tokens.clear()
    this.teams.clear()
    for (const user of this.data.users) this.users.set(user.id, user)
    for (const token of this.data.tokens) this.tokens.set(token.token, token)
    for (const state of this.data.teams) this.teams.set(state.team.id, openTeam(state, this.tables, this.sink, this.changes, this.memberElsewhere))
    if (this.sink) for (const place of WORLD_PLACES) register(this.sink, this.data[place], place)
  }

  /**
   * Records every change from now on into sink (src/store/persistence.ts, --data); background runs
   * work that changes the world outside a request (due jobs, webhook attempts) as a write unit.
   */
  record(sink: ChangeSink, background: <T>(work: () => T) => T): void {
    this.sink = sink
    this.background = background
    this.open()
  }

  /**
   * Puts a world read back from the data file in this one's place (a save failed: what is on disk
   * is the truth). The job queue stays the same array, which the scheduler holds.
   */
  reload(data: WorldData): void {
    for (const state of this.data.teams) for (const [, holder] of recordedParts(state)) unregister(holder)
    for (const place of WORLD_PLACES) unregister(this.data[place])
    const jobs = this.data.jobs
    forgetJobQueue(jobs)
    jobs.length = 0
    for (const job of data.jobs) jobs.push(job)
    Object.assign(this.data, data, { jobs })
    this.open()
    this.changes.world.bump()
  }

  /** Runs work that changes the world outside a request (a due job, a webhook attempt) as one write unit. */
  changing<T>(work: () => T): T {
    return this.background(work)
  }

  /** Records the changes to one of the world's arrays of rows kept elsewhere (the OAuth state), by where it lives. */
  track(rows: object[], place: string): void {
    if (this.sink) register(this.sink, rows, place)
  }

  /** The job queue's changes, for the scheduler. */
  readonly jobLog: JobQueueLog = {
    added: (job) => inserted(this.data.jobs, job),
    removed: (job) => deleted(this.data.jobs, job),
    unit: (work) => this.background(work),
  }

  nextId(sequence: SequenceName): number {
    const next = (this.data.sequences[sequence] ?? 0) + 1
    this.data.sequences[sequence] = next
    sequenceMoved(this.sink, sequence)
    return next
  }

  user(id: number): UserRow | undefined {
    return this.users.get(id)
  }

  userByEmail(email: string): UserRow | undefined {
    const wanted = email.toLowerCase()
    return this.data.users.find((row) => row.email.toLowerCase() === wanted)
  }

  /** Changes a user (PATCH /me, the control API): every team they are in shows them. */
  updateUser(user: UserRow, change: RowChange<UserRow>): UserRow {
    if (this.users.get(user.id) !== user) throw new Error(`store: user ${user.id} is not the world's`)
    applyChange(user, change)
    if (recording.on) touched(this.data.users, user)
    this.changes.world.bump()
    return user
  }

  /** Changes a token (revoked, expired). */
  updateToken(token: TokenRow, change: RowChange<TokenRow>): TokenRow {
    if (this.tokens.get(token.token) !== token) throw new Error('store: a token that is not the world\'s')
    applyChange(token, change)
    if (recording.on) touched(this.data.tokens, token)
    this.changes.world.bump()
    return token
  }

  team(id: number): Team | undefined {
    return this.teams.get(id)
  }

  allTeams(): IterableIterator<Team> {
    return this.teams.values()
  }

  /** Teams the user is currently a member of, in the order they were created. */
  teamsOf(userId: number): Team[] {
    return [...this.teams.values()].filter((team) => team.member(userId) !== undefined)
  }

  addUser(user: UserRow): void {
    this.data.users.push(user)
    if (recording.on) inserted(this.data.users, user)
    this.users.set(user.id, user)
  }

  addToken(token: TokenRow): void {
    this.data.tokens.push(token)
    if (recording.on) inserted(this.data.tokens, token)
    this.tokens.set(token.token, token)
  }

  addTeam(state: TeamState): Team {
    // Opening the team gives its state an empty array for every table: the log takes it after that.
    const team = openTeam(state, this.tables, this.sink, this.changes, this.memberElsewhere)
    teamChanged(this.sink, state.team.id, state)
    this.data.teams.push(state)
    this.teams.set(team.id, team)
    return team
  }

  addSnapshot(snapshot: SnapshotRow): void {
    this.data.snapshots.push(snapshot)
    if (recording.on) inserted(this.data.snapshots, snapshot)
  }

  removeSnapshot(snapshot: SnapshotRow): void {
    this.removeRow(this.data.snapshots, snapshot)
  }

  /** What a reset of a team made by POST /_mock/teams puts back. */
  addBaseline(image: TeamRecipe): void {
    this.data.baselines.push(image)
    if (recording.on) inserted(this.data.baselines, image)
  }

  /** Gives a team other jobs (a snapshot restored), keeping the queue in order. */
  replaceTeamJobs(team: number, jobs: JobRow[]): void {
    replaceTeamJobs(this.data.jobs, team, jobs)
    if (this.sink) changed(this.sink, ['j', team, jobs.map((job) => ({ ...job }))])
  }

  private removeRow<T extends object>(rows: T[], row: T): void {
    rows.splice(rows.indexOf(row), 1)
    if (recording.on) deleted(rows, row)
  }

  /**
   * Puts another state in a team's place (a snapshot restored): the team is opened again on it, so
   * every table and index is rebuilt from its rows. Users and tokens stay as they are.
   */
  replaceTeam(state: TeamState): Team {
    const old = this.teams.get(state.team.id)
    if (!old) throw new Error(`store: no team ${state.team.id} to replace`)
    for (const [, holder] of recordedParts(old.state)) unregister(holder)
    const team = openTeam(state, this.tables, this.sink, this.changes, this.memberElsewhere)
    teamChanged(this.sink, state.team.id, state)
    this.data.teams[this.data.teams.indexOf(old.state)] = state
    this.teams.set(team.id, team)
    team.changes.bump()
    this.changes.world.bump()
    return team
  }

  /**
   * Drops a team with everything in it, its snapshots, its tokens, and the users who belong to no
   * other team. Returns false when there is no such team.
   */
  removeTeam(id: number): boolean {
    const team = this.teams.get(id)
    if (!team) return false
    this.teams.delete(id)
    this.changes.forget(id)
    this.changes.world.bump()
    this.data.teams.splice(this.data.teams.indexOf(team.state), 1)
    for (const [, holder] of recordedParts(team.state)) unregister(holder)
    changed(this.sink, ['x', id])
    for (const snapshot of this.data.snapshots.filter((row) => row.team === id)) this.removeRow(this.data.snapshots, snapshot)
    for (const baseline of this.data.baselines.filter((row) => row.team === id)) this.removeRow(this.data.baselines, baseline)
    const orphans = new Set(team.members.map((member) => member.user).filter((user) => ![...this.teams.values()].some((other) => other.membership(user))))
    for (const token of this.data.tokens.filter((row) => row.team === id || orphans.has(row.user))) {
      this.tokens.delete(token.token)
      this.removeRow(this.data.tokens, token)
    }
    for (const user of this.data.users.filter((row) => orphans.has(row.id))) {
      this.users.delete(user.id)
      this.removeRow(this.data.users, user)
    }
    return true
  }

  /**
   * A token's user, team and membership; undefined when unknown, revoked, expired, orphaned, or
   * when the user has left the team. now is only asked for when the token can expire (this runs
   * on every request).
   */
  resolveToken(value: string, now: () => string): Identity | undefined {
    const token = this.tokens.get(value)
    if (!token || token.revoked_at !== null) return undefined
    if (token.expires_at !== null && token.expires_at <= now()) return undefined
    const user = this.users.get(token.user)
    const team = this.teams.get(token.team)
    const member = team?.member(token.user)
    if (!user || user.is_disabled || !team || !member) return undefined
    return { token, user, team, member: member as MemberRow & { role: Role } }
  }

  /** Why resolveToken turns a token away, and the team it was issued for when it is one the mock knows (the journal). */
  whyRejected(value: string, now: () => string): { reason: string; team: number | undefined } {
    const token = this.tokens.get(value)
    if (!token) return { reason: 'a token the service never issued', team: undefined }
    const team = token.team
    if (token.revoked_at !== null) return { reason: `a token revoked at ${token.revoked_at}`, team }
    if (token.expires_at !== null && token.expires_at <= now()) return { reason: `a token that expired at ${token.expires_at}`, team }
    const user = this.users.get(token.user)
    if (!user || user.is_disabled) return { reason: "the token's user is disabled", team }
    if (!this.teams.get(team)?.member(token.user)) return { reason: "the token's user has left the team", team }
    return { reason: 'a valid token', team }
  }
}
