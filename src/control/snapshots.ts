// Snapshots, restore and reset of a team (contracts/control/teams.json): a test takes a team back
// to a known state in milliseconds. What an image holds and how it goes back is src/store/snapshots.ts;
// here: the bound per team, the 404s, webhook delivery and the bytes of attachments nothing holds.
import type { Services } from '../context.ts'
import { invalid, notFound } from '../kernel/errors.ts'
import { loadWorldFixture } from '../seed/fixture.ts'
import { captureTeam, imageContent, restoreTeam, teamBlobs, unheldBlobs, type TeamContent } from '../store/snapshots.ts'
import type { SnapshotRow, Team, TeamImage } from '../store/world.ts'
import type { ControlRoutes } from './routes.ts'

/** Snapshots a team keeps at most: enough for a suite's checkpoints, few enough that memory stays small. */
export const MAX_SNAPSHOTS_PER_TEAM = 10

function findTeam(services: Services, params: { id: number }): Team {
  const team = services.store.team(params.id)
  if (!team) throw notFound('Team')
  return team
}

const snapshotsOf = (services: Services, team: number) => services.store.data.snapshots.filter((snapshot) => snapshot.team === team)

function findSnapshot(services: Services, team: number, id: number): SnapshotRow {
  const snapshot = services.store.data.snapshots.find((row) => row.id === id && row.team === team)
  if (!snapshot) throw notFound('Snapshot')
  return snapshot
}

function presentSnapshot(snapshot: SnapshotRow) {
  return {
    object: 'mock_snapshot' as const,
    id: snapshot.id,
    team: snapshot.team,
    name: snapshot.name,
    created_at: snapshot.created_at,
    rows: snapshot.rows,
    jobs: snapshot.jobs.length,
  }
}

/** Forgets the bytes of blobs that nothing holds any more (no team's rows, no snapshot). */
function dropUnheldBlobs(services: Services, candidates: Iterable<string>): void {
  for (const blob of unheldBlobs(services.store, candidates)) services.blobs.remove(blob)
}

/** Puts a team back as an image (or the team made again) has it, with its webhook deliveries; answers what it now holds. */
function putBack(services: Services, team: Team, image: TeamContent, from: 'snapshot' | 'seed' | 'creation', snapshot: number | null) {
  const before = teamBlobs(services.store, team.state)
  const restored = restoreTeam(services.store, image)
  services.webhooks.replaced(restored)
  dropUnheldBlobs(services, before)
  return {
    object: 'mock_team_state' as const,
    team: restored.id,
    from,
    snapshot,
    rows: image.rows,
    jobs: image.jobs.length,
  }
}

/** The team as an image; a 422 when its rows are more JSON than one string can hold (about 512 MB). */
function imageOf(services: Services, team: Team): TeamImage {
  try {
    return captureTeam(services.store, team)
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw invalid({ snapshots: ['The team is too large to snapshot: its rows are more JSON than one string can hold (about 512 MB). Snapshot a smaller team.'] })
  }
}

export function snapshotRoutes(routes: ControlRoutes): void {
  routes.handle('control.teams.snapshots.create', ({ ctx, params, body }) => {
    const team = findTeam(ctx, params)
    if (snapshotsOf(ctx, team.id).length >= MAX_SNAPSHOTS_PER_TEAM) {
      throw invalid({ snapshots: [`A team keeps at most ${MAX_SNAPSHOTS_PER_TEAM} snapshots; delete one first.`] })
    }
    const image = imageOf(ctx, team)
    const snapshot: SnapshotRow = { id: ctx.store.nextId('snapshot'), name: body.name ?? null, created_at: ctx.clock.timestamp(), ...image }
    ctx.store.addSnapshot(snapshot)
    return presentSnapshot(snapshot)
  })

  routes.handle('control.teams.snapshots.list', ({ ctx, params }) => {
    const team = findTeam(ctx, params)
    return { object: 'list' as const, data: snapshotsOf(ctx, team.id).map(presentSnapshot), limit: MAX_SNAPSHOTS_PER_TEAM }
  })

  routes.handle('control.teams.snapshots.delete', ({ ctx, params }) => {
    const team = findTeam(ctx, params)
    const snapshot = findSnapshot(ctx, team.id, params.snapshotId)
    ctx.store.removeSnapshot(snapshot)
    dropUnheldBlobs(ctx, snapshot.blobs)
  })

  routes.handle('control.teams.restore', ({ ctx, params, body }) => {
    const team = findTeam(ctx, params)
    const snapshot = findSnapshot(ctx, team.id, body.snapshot)
    return putBack(ctx, team, imageContent(snapshot), 'snapshot', snapshot.id)
  })

  routes.handle('control.teams.reset', async ({ ctx, params }) => {
    const team = findTeam(ctx, params)
    const baseline = ctx.store.data.baselines.find((image) => image.team === team.id)
    // A data file written before recipes holds the whole team as it was made.
    if (baseline && 'state' in baseline) return putBack(ctx, team, imageContent(baseline), 'creation', null)
    // The seed (faker and its locales) loads with the first reset to it, not at start-up.
    const { seededTeamImage } = await import('../seed/index.ts')
    const seeded = seededTeamImage(loadWorldFixture(), ctx.store, team.id)
    if (!seeded) throw new Error(`team ${team.id} was neither seeded nor made by POST /_mock/teams: nothing to reset it to`)
    return putBack(ctx, team, seeded, baseline ? 'creation' : 'seed', null)
  })
}
