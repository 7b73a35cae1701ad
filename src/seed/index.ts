// Builds the seeded world from fixtures/world.json (teams, users, roles, tokens) and the seeded
// generator (everything else), and adds fresh teams on demand (tests, the control API).
import { toTimestamp } from '../kernel/clock.ts'
import type { Random } from '../kernel/random.ts'
import { ROLES, type Role } from '../kernel/roles.ts'
import type { MemberRow, TokenRow, UserRow } from '../store/identity.ts'
import { seededOAuthState } from './oauth.ts'
import { outsideWriteUnits } from '../store/changes.ts'
import { teamBlobs, teamContent, type TeamContent } from '../store/snapshots.ts'
import { newTeamState, Store, WORLD_FORMAT, type Team, type TeamRecipe, type TeamRecipeOptions, type WorldData } from '../store/world.ts'
import type { WorldFixture } from './fixture.ts'
import { generateTeamData, withSeededFaker, type GenerateCounts } from './generate.ts'
import type { Faker } from '@faker-js/faker'
import { hasPrebuiltWorld, readPrebuiltWorld } from './prebuilt.ts'
import { GenerationProgress, type ProgressSink } from './progress.ts'
import { TABLES } from '../tables.ts'

const DAY = 86_400_000

function emptyWorld(seed: number, sequences: WorldData['sequences'], oauth: WorldData['oauth']): WorldData {
  return { format: WORLD_FORMAT, seed, sequences, users: [], tokens: [], teams: [], jobs: [], snapshots: [], baselines: [], oauth }
}

/** The same world for the same fixture and seed, on every start. */
export function seedWorld(fixture: WorldFixture, seed = fixture.seed): WorldData {
  const oauth = seededOAuthState(fixture.oauth_clients, fixture.epoch)
  const data = emptyWorld(seed, {}, oauth)
  const store = new Store(data, TABLES)
  const epoch = new Date(fixture.epoch)
  const teamIds = new Map<string, number>()
  const userIds = new Map<string, number>()

  fixture.teams.forEach((team, index) => withSeededFaker(seed * 7919 + index, (faker) => {
    const created = new Date(epoch.getTime() - faker.number.int({ min: 800, max: 1400 }) * DAY)
    const id = store.nextId('team')
    teamIds.set(team.key, id)
    store.addTeam(
      newTeamState({
        id,
        identifier: team.identifier,
        uuid: faker.string.uuid(),
        name: team.name,
        contact: team.contact,
        telephone: team.telephone,
        tier: team.tier,
        is_support_enabled: team.is_support_enabled,
        cases_enabled: team.cases_enabled,
        declaration_enabled: team.declaration_enabled,
        created_at: toTimestamp(created),
        updated_at: toTimestamp(faker.date.between({ from: created, to: epoch })),
        archived_at: null,
      }),
    )
  }))

  for (const fixtureUser of fixture.users) {
    const teams = fixtureUser.memberships.map((m) => store.team(teamIds.get(m.team) as number) as Team)
    const created = teams.map((t) => t.row.created_at).sort()[0] as string
    const user: UserRow = {
      id: store.nextId('user'),
      name: fixtureUser.name,
      email: fixtureUser.email,
      pending_email: null,
      is_verified: true,
      is_disabled: false,
      created_at: created,
      updated_at: created,
    }
    store.addUser(user)
    userIds.set(fixtureUser.key, user.id)
    fixtureUser.memberships.forEach((membership, index) => {
      ;(teams[index] as Team).addMember(user.id, membership.role, created)
    })
  }

  fixture.teams.forEach((team, index) => {
    const state = store.team(teamIds.get(team.key) as number) as Team
    withSeededFaker(seed * 104_729 + index, (faker) => generateTeamData(faker, store, state, team.domain, team.generate, epoch))
  })
  // A webhook whose endpoint never answered is disabled after 10 failed payloads (docs/specification-notes.md "Webhooks"): seeded so, nothing is sent to it.
  for (const webhook of fixture.webhooks ?? []) {
    const { team, ...fields } = webhook
    ;(store.team(teamIds.get(team) as number) as Team).webhooks.insert({ id: store.nextId('webhook'), ...fields, events: [...fields.events], is_enabled: false, failures: 10, updated_at: fields.created_at })
  }

  const tokenCreated = toTimestamp(new Date(epoch.getTime() - 30 * DAY))
  for (const token of fixture.tokens) {
    const state = token.state ?? 'active'
    store.addToken({
      token: token.token,
      name: token.name,
      user: userIds.get(token.user) as number,
      team: teamIds.get(token.team) as number,
      created_at: tokenCreated,
      // Seeded tokens never expire, so the mock keeps working; see docs/behaviour-notes.md "Clock, ids, persistence".
      expires_at: state === 'expired' ? toTimestamp(new Date(epoch.getTime() - DAY)) : null,
      revoked_at: state === 'revoked' ? toTimestamp(new Date(epoch.getTime() - 10 * DAY)) : null,
    })
  }
  return data
}

/** The seeded world of a seed: the build's (dist/world.json) for the fixture's own seed, else seeded now. */
export function seededWorld(fixture: WorldFixture, seed: number | undefined): WorldData {
  return hasPrebuiltWorld(fixture, seed) ? readPrebuiltWorld() : seedWorld(fixture, seed)
}

/**
 * A team as its seed made it, its jobs included, made again: a team made by POST /_mock/teams from
 * its recipe (a store's baseline), else a team of the seeded world from the fixture and the world's
 * seed (the same world on every start). Undefined for a team neither made.
 */
export function seededTeamImage(fixture: WorldFixture, store: Store, team: number): TeamContent | undefined {
  const recipe = store.data.baselines.find((baseline): baseline is TeamRecipe => baseline.team === team && 'options' in baseline)
  if (recipe) return remakeTeam(store, recipe)
  const world = new Store(seededWorld(fixture, store.data.seed), TABLES)
  const seeded = world.team(team)
  return seeded && teamContent(world, seeded)
}

/**
 * A team made by POST /_mock/teams made again in a scratch world whose id sequences stand where
 * the store's stood then: the same rows, ids and jobs. Its users and tokens stay in the scratch
 * world (the store keeps its own); the token secrets are not drawn again.
 */
function remakeTeam(store: Store, recipe: TeamRecipe): TeamContent {
  const scratch = new Store(emptyWorld(store.data.seed, { ...recipe.sequences }, { clients: [], codes: [], access_tokens: [], refresh_tokens: [] }), store.tables)
  // Its rows are not changes of the store's world (replacing the team records its whole state).
  const { team } = outsideWriteUnits(() => buildTeam(scratch, recipe, () => 'remade'))
  return teamContent(scratch, team)
}

export type { ProgressSink } from './progress.ts'

/** What a team is asked for: its recipe's options (name, cases, declaration), with generated counts by name. */
export interface NewTeamOptions extends TeamRecipeOptions {
  /** Generated data to add; by default a new team has no clients and one opening credit purchase. */
  generate?: Partial<GenerateCounts>
}

export interface NewTeam {
  team: Team
  /** A token per role (docs/specification-notes.md "Roles"), each of its own user. */
  tokens: Record<Role, string>
  users: Record<Role, UserRow>
  members: Record<Role, MemberRow>
}

/**
 * A fresh, isolated team with one user of every role, each with a token valid for a year. A team
 * that takes long to make says how far it has got to `progress` (the mock's console).
 */
export function addTeam(store: Store, random: Random, now: Date, options: NewTeamOptions = {}, progress?: ProgressSink): NewTeam {
  const sequences = { ...store.data.sequences }
  const recipe: TeamRecipe = { team: 0, seed: random.int(0, 2 ** 31), uuid: random.uuid(), made_at: now.toISOString(), options, sequences, blobs: [] }
  const made = buildTeam(store, recipe, () => random.hex(24), progress)
  // What a reset makes again (POST /_mock/teams/{id}/reset).
  store.addBaseline({ ...recipe, team: made.team.id, blobs: [...teamBlobs(store, made.team.state)] })
  return made
}

/** The team a recipe says, with its users and tokens; `secret` draws each token's random part. */
function buildTeam(store: Store, recipe: TeamRecipe, secret: () => string, progress?: ProgressSink): NewTeam {
  return withSeededFaker(recipe.seed, (faker) => buildTeamWith(faker, store, recipe, secret, progress))
}

function buildTeamWith(faker: Faker, store: Store, recipe: TeamRecipe, secret: () => string, progress?: ProgressSink): NewTeam {
  const { options } = recipe
  const now = new Date(recipe.made_at)
  const id = store.nextId('team')
  const at = toTimestamp(now)
  const domain = `team-${id}.example`
  const team = store.addTeam(
    newTeamState({
      id,
      identifier: `team-${id}`,
      uuid: recipe.uuid,
      name: options.name ?? `${faker.company.name()} (test team ${id})`,
      contact: `contact@${domain}`,
      telephone: null,
      tier: 'business',
      is_support_enabled: false,
      cases_enabled: options.casesEnabled ?? true,
      declaration_enabled: options.declarationEnabled ?? false,
      created_at: at,
      updated_at: at,
      archived_at: null,
    }),
  )
  const users = {} as Record<Role, UserRow>
  const members = {} as Record<Role, MemberRow>
  const tokens = {} as Record<Role, string>
  for (const role of ROLES) {
    const user: UserRow = {
      id: store.nextId('user'),
      name: faker.person.fullName(),
      email: `${role}@${domain}`,
      pending_email: null,
      is_verified: true,
      is_disabled: false,
      created_at: at,
      updated_at: at,
    }
    store.addUser(user)
    members[role] = team.addMember(user.id, role, at)
    const token: TokenRow = {
      token: `ivs_t${id}_${role.replace('-', '')}_${secret()}`,
      name: `${role} of team ${id}`,
      user: user.id,
      team: id,
      created_at: at,
      expires_at: toTimestamp(new Date(now.getTime() + 365 * DAY)),
      revoked_at: null,
    }
    store.addToken(token)
    users[role] = user
    tokens[role] = token.token
  }
  const counts = { members: 0, clients: 0, organisations: 0, credit_entries: 1, records: 0, cases: 0, ...options.generate }
  generateTeamData(faker, store, team, domain, counts, now, progress && new GenerationProgress(progress, team.row.name))
  return { team, tokens, users, members }
}
