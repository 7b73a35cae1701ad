// A team's whole state as an image: its rows (members included) as JSON text, copies of its jobs
// on the clock, and the keys of the blobs its rows point at. Restoring parses the text (so an image
// can be restored any number of times) and opens the team anew, which rebuilds every table and index. Ids come from world-wide sequences that only grow, so a restored row keeps
// its id and no later id can clash with it. Users and tokens are the world's, not the team's: they
// stay as they are.
import type { JobRow } from '../kernel/scheduler.ts'
import type { Store, Team, TeamImage, TeamState } from './world.ts'

/** A team's rows and jobs, ready to take its place: an image parsed, or the team made again. */
export interface TeamContent {
  team: number
  state: TeamState
  rows: Record<string, number>
  jobs: JobRow[]
}

/** The blob keys a team's rows point at, as the resources declare. */
export function teamBlobs(store: Store, state: TeamState): Set<string> {
  const keys = new Set<string>()
  for (const declaration of store.tables) for (const key of declaration.blobs?.(state) ?? []) keys.add(key)
  return keys
}

/** Rows per table of a team's state. */
function rowCounts(state: TeamState): Record<string, number> {
  return Object.fromEntries(Object.entries(state).flatMap(([key, rows]) => (Array.isArray(rows) ? [[key, rows.length]] : [])))
}

/** The team as it is now. */
export function captureTeam(store: Store, team: Team): TeamImage {
  return {
    team: team.id,
    state: JSON.stringify(team.state),
    rows: rowCounts(team.state),
    jobs: store.data.jobs.filter((job) => job.team === team.id).map((job) => ({ ...job })),
    blobs: [...teamBlobs(store, team.state)],
  }
}

/** What an image holds, as new rows (an image can be restored any number of times). */
export function imageContent(image: TeamImage): TeamContent {
  return { team: image.team, state: JSON.parse(image.state) as TeamState, rows: image.rows, jobs: image.jobs.map((job) => ({ ...job })) }
}

/** The rows and jobs of a team of another store (a team made again), to take the place of the team with its id. */
export function teamContent(store: Store, team: Team): TeamContent {
  return { team: team.id, state: team.state, rows: rowCounts(team.state), jobs: store.data.jobs.filter((job) => job.team === team.id) }
}

/** Puts the content in its team's place: its rows and its jobs; answers the team, opened anew. */
export function restoreTeam(store: Store, content: TeamContent): Team {
  const team = store.replaceTeam(content.state)
  store.replaceTeamJobs(content.team, content.jobs)
  return team
}

/** Whether a snapshot or a baseline still needs a blob's bytes. */
export function imagesHold(store: Store, blob: string): boolean {
  return [...store.data.snapshots, ...store.data.baselines].some((image) => image.blobs.includes(blob))
}

/**
 * Those of the candidates (the blobs of an image dropped, or of a state replaced) that nothing
 * needs any more: no image holds them and no team's rows point at them. Their bytes can go.
 */
export function unheldBlobs(store: Store, candidates: Iterable<string>): string[] {
  const unique = new Set(candidates)
  if (unique.size === 0) return []
  const live = new Set<string>()
  for (const team of store.allTeams()) for (const key of teamBlobs(store, team.state)) live.add(key)
  return [...unique].filter((blob) => !live.has(blob) && !imagesHold(store, blob))
}
