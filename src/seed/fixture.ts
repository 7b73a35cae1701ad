// fixtures/world.json, the fixed part of the seeded world (teams, users, roles, tokens): read on
// every start, checked against world.schema.json (which refers to the contracts) by the build and
// the tests only, because compiling that schema pulls in the contracts it refers to.
import { readFileSync } from 'node:fs'
import type { AjvContracts } from '../contracts/ajv.ts'
import { describeErrors } from '../contracts/load.ts'
import { fixturesDir } from '../paths.ts'
import type { Role } from '../kernel/roles.ts'
import type { GenerateCounts } from './generate.ts'
import type { WebhookRow } from '../resources/webhooks/index.ts'

export interface WorldFixture {
  seed: number
  epoch: string
  teams: Array<{
    key: string
    name: string
    identifier: string
    domain: string
    contact: string
    telephone: string | null
    tier: string
    is_support_enabled: boolean
    cases_enabled: boolean
    declaration_enabled: boolean
    generate: GenerateCounts
  }>
  /** role null: the user has left the team (their tokens answer 401; they still show where assigned). */
  users: Array<{ key: string; name: string; email: string; memberships: Array<{ team: string; role: Role | null }> }>
  tokens: Array<{ token: string; user: string; team: string; name: string; state?: 'active' | 'revoked' | 'expired' }>
  /** API clients of the OAuth 2.0 flow (src/oauth/). */
  oauth_clients: Array<{ name: string; client_id: string; client_secret: string; redirect_uris: string[] }>
  /** Webhooks a team set up before the epoch: disabled, since their endpoints never answered (nothing is delivered to them). */
  webhooks?: Array<{ team: string; uuid: string; url: string; secret: string; events: WebhookRow['events']; created_at: string }>
}

function readJson(path: string): unknown {
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** Reads fixtures/world.json as it is; checkWorldFixture has made sure it is a WorldFixture. */
export function loadWorldFixture(dir = fixturesDir): WorldFixture {
  return readJson(`${dir}/world.json`) as WorldFixture
}

/** Checks fixtures/world.json against fixtures/world.schema.json, then that its users, teams and tokens fit together. */
export function checkWorldFixture(contracts: AjvContracts, dir = fixturesDir): void {
  const fixture = readJson(`${dir}/world.json`)
  const validate = contracts.compile(readJson(`${dir}/world.schema.json`) as Record<string, unknown>)
  if (!validate(fixture)) {
    const problems = describeErrors(validate.errors).map((e) => `${e.path || '(root)'}: ${e.message}`)
    throw new Error(`fixtures/world.json does not match world.schema.json: ${problems.join('; ')}`)
  }
  const world = fixture as WorldFixture
  const teamKeys = new Set(world.teams.map((team) => team.key))
  const userKeys = new Set(world.users.map((user) => user.key))
  for (const user of world.users) {
    for (const { team } of user.memberships) if (!teamKeys.has(team)) throw new Error(`fixtures: user ${user.key} joins unknown team ${team}`)
  }
  for (const webhook of world.webhooks ?? []) {
    if (!teamKeys.has(webhook.team)) throw new Error(`fixtures: webhook ${webhook.uuid} belongs to unknown team ${webhook.team}`)
  }
  for (const token of world.tokens) {
    const user = world.users.find((u) => u.key === token.user)
    if (!userKeys.has(token.user) || !user?.memberships.some((m) => m.team === token.team)) {
      throw new Error(`fixtures: token ${token.token} names user ${token.user}, who is not a member of ${token.team}`)
    }
  }
}
