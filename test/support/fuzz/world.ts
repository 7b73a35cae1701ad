// The world the fuzz sends its requests to: built once through the HTTP surface (the control API
// makes three fresh teams; the API fills the first), then copied for every run so that each run,
// and each replay of a failing one, starts from the same state.
import { linkSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SURFACES } from '../../../src/contracts/load.ts'
import type { Role } from '../../../src/kernel/roles.ts'
import { samplesDir } from '../../../src/paths.ts'
import { BlobStore } from '../../../src/store/blobs.ts'
import type { WorldData } from '../../../src/store/world.ts'
import { ApiClient } from '../api.ts'
import { createTestMock, type TestMock } from '../mock.ts'
import type { PoolRef } from '../schema-arbitrary.ts'
import { ACCEPTED } from '../uploads.ts'

/** How long the tokens of a team made by POST /_mock/teams last (docs/control-api.md "A fresh, isolated team per test run"). */
const TOKEN_LIFETIME_DAYS = 365

/** Webhooks the fuzz creates deliver here: a loopback port nothing listens on, so attempts fail at once. */
export const NOWHERE = 'http://127.0.0.1:9'

export interface FuzzTeam {
  id: number
  tokens: Record<Role, string>
}

/** What a run starts from: the world, and who is who in it. */
export interface FuzzTemplate {
  world: WorldData
  /** The folder of the world's uploads (each run works on a copy). */
  uploads: string
  /** Attachments uploaded through the API, which no list shows. */
  attachments: number[]
  /** The team the requests act in (the caller's). */
  own: FuzzTeam
  /** Another team: its ids are the "foreign" ones. */
  foreign: FuzzTeam
  /** A team the control API may delete. */
  disposable: FuzzTeam
  /** An OAuth access token of the own team's member. */
  oauthToken: string
  /** A refresh token that goes with it. */
  refreshToken: string
  /** When the teams' tokens expire (a year after they were made): a run that moves the clock past it is locked out. */
  tokensExpireAt: Date
}

async function ok<T = any>(response: Promise<{ status: number; body: T; text: string }>, what: string): Promise<T> {
  const res = await response
  if (res.status >= 300) throw new Error(`fuzz world: ${what} answered ${res.status}: ${res.text}`)
  return res.body
}

const FORM_TEMPLATE = {
  name: 'Fuzz questionnaire',
  fields: [
    { id: 'root', type: 'section', label: '', fields: ['full_name', 'pet'] },
    { id: 'full_name', type: 'text', label: 'Full name', validation: ['required'] },
    { id: 'pet', type: 'radio', label: { value: 'A pet?', options: ['Yes', 'No'] } },
  ],
}

/** Builds the fuzz world through the control API and the API, and snapshots it. */
export async function buildTemplate(): Promise<FuzzTemplate> {
  const uploads = mkdtempSync(join(tmpdir(), 'ivs-mock-fuzz-'))
  const mock = createTestMock({ blobs: new BlobStore({ dir: uploads, samplesDir }) })
  const control = mock.control
  const newTeam = async (body: unknown): Promise<FuzzTeam> => {
    const made = await ok(control.post('/teams', body), 'POST /_mock/teams')
    return { id: made.team.id, tokens: made.tokens }
  }
  const generate = { members: 2, clients: 6, organisations: 3, credit_entries: 6, records: 8, cases: 3 }
  const own = await newTeam({ name: 'Fuzz own team', declaration: true, generate })
  const foreign = await newTeam({ name: 'Fuzz foreign team', generate })
  const disposable = await newTeam({ name: 'Fuzz disposable team', generate: { clients: 1 } })
  // A snapshot to restore and delete (faults live in the app, not the world, so runs make their own).
  await ok(control.post(`/teams/${disposable.id}/snapshots`, { name: 'fuzz' }), 'POST /_mock/teams/{id}/snapshots')
  // The seeded teams are left out, which keeps each run's copy of the world small.
  for (const seeded of [1, 2, 3]) await ok(control.delete(`/teams/${seeded}`), 'DELETE /_mock/teams')

  const api = new ApiClient(mock.app, own.tokens.owner)
  const members = (await ok(api.get('/team/members', { limit: 100 }), 'GET /team/members')).data as Array<{ id: number; role: string }>
  const memberId = members.find((member) => member.role === 'member')?.id as number
  const assignedOnlyId = members.find((member) => member.role === 'assigned-only')?.id as number
  const attachments: number[] = []
  for (const kind of ['pdf', 'png', 'txt', 'csv']) {
    const file = ACCEPTED.find((candidate) => candidate.kind === kind)
    const form = new FormData()
    form.append('attachment', new Blob([file?.bytes ?? new Uint8Array()]), file?.name)
    attachments.push((await ok(api.request('POST', '/attachments', { body: form }), 'POST /attachments')).id)
  }
  const client = await ok(api.post('/clients', { name: { first_name: 'Fuzz', last_name: 'Client' }, email: 'fuzz.client@example.com', reference: 'FUZZ-1' }), 'POST /clients')
  await ok(api.post(`/clients/${client.id}/files`, { attachment: attachments[3], name: 'Signed terms' }), 'POST /clients/{id}/files')
  await ok(api.post('/clients', { name: { title: 'other', other_title: 'Rev', first_name: 'Second', last_name: 'Client' }, email: 'second@example.com' }), 'POST /clients')
  const organisation = await ok(api.post('/organisations', { name: 'Fuzz Holdings Ltd' }), 'POST /organisations')
  await ok(api.put(`/clients/${client.id}/organisations`, [organisation.id]), 'PUT /clients/{id}/organisations')
  await ok(api.post(`/clients/${client.id}/assignees`, [{ type: 'team_member', team_member: assignedOnlyId }]), 'POST /clients/{id}/assignees')
  await ok(api.post(`/organisations/${organisation.id}/assignees`, [{ type: 'team_member', team_member: memberId }]), 'POST /organisations/{id}/assignees')
  const steps = [{ type: 'check.identity' }, { type: 'check.watchlist', preferences: null }, { type: 'document.request', preferences: { title: 'Payslip', instructions: 'Your latest payslip.' } }]
  const record = await ok(api.post('/records', { client: client.id, steps, notification: 'email', reminder: true }), 'POST /records')
  const second = await ok(api.post('/records', { client: client.id, steps: [{ type: 'check.dummy' }], notification: false }), 'POST /records')
  await ok(api.post(`/records/${record.id}/assignees`, [{ type: 'team_member', team_member: assignedOnlyId }]), 'POST /records/{id}/assignees')
  await ok(control.post(`/records/${second.id}/complete`, { outcome: 'clear', delay_seconds: 0 }), 'POST /_mock/records/{id}/complete')
  await ok(control.post(`/records/${record.id}/corrections`, { first_name: 'Fuzzy', last_name: 'Client' }), 'POST /_mock/records/{id}/corrections')
  // A correction waiting on a few more clients, so a correction's path finds one more often.
  for (const generated of ((await ok(api.get('/records', { status: 'pending', limit: 3 }), 'GET /records')).data as Array<{ id: number }>)) {
    await control.post(`/records/${generated.id}/corrections`, { first_name: 'Corrected', last_name: 'Name' })
  }
  const kase = await ok(api.post('/cases', { client: client.id, name: 'Fuzz case' }), 'POST /cases')
  await ok(api.patch(`/cases/${kase.id}/items`, [{ id: record.id, type: 'record' }, { id: second.id, type: 'record' }]), 'PATCH /cases/{id}/items')
  await ok(control.put(`/cases/${kase.id}/assignees`, { team_members: [memberId, assignedOnlyId] }), 'PUT /_mock/cases/{id}/assignees')
  await ok(api.post('/webhooks', { url: `${NOWHERE}/hooks`, events: ['client.created', 'record.updated'] }), 'POST /webhooks')
  await ok(api.post('/form-templates', FORM_TEMPLATE), 'POST /form-templates')

  const [oauthClient] = (await ok(control.get('/oauth/clients'), 'GET /_mock/oauth/clients')).data as Array<{ client_id: string; client_secret: string; redirect_uris: string[] }>
  if (!oauthClient) throw new Error('fuzz world: no OAuth client in the fixture')
  const redirect = oauthClient.redirect_uris[0] as string
  const granted = await ok(control.post('/oauth/authorize', { client_id: oauthClient.client_id, redirect_uri: redirect, token: own.tokens.member }), 'POST /_mock/oauth/authorize')
  const tokenForm = new URLSearchParams({ grant_type: 'authorization_code', client_id: oauthClient.client_id, client_secret: oauthClient.client_secret, redirect_uri: redirect, code: granted.code })
  const pair = await ok(
    new ApiClient(mock.app, undefined, '').request('POST', '/oauth/token', { raw: tokenForm.toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
    'POST /oauth/token',
  )
  mock.services.scheduler.runDue()
  const now = new Date((await ok(control.get('/clock'), 'GET /_mock/clock')).now as string)
  return {
    world: structuredClone(mock.store.data),
    uploads,
    attachments,
    own,
    foreign,
    disposable,
    oauthToken: pair.access_token,
    refreshToken: pair.refresh_token,
    tokensExpireAt: new Date(now.getTime() + TOKEN_LIFETIME_DAYS * 86_400_000),
  }
}

/** Removes what the template keeps on disk. */
export function disposeTemplate(template: FuzzTemplate): void {
  rmSync(template.uploads, { recursive: true, force: true })
}

/** A list to pick ids from, and what to take from each of its items. */
interface PoolSource {
  /** Whose team lists it. */
  team: 'own' | 'foreign'
  /** 'GET <url>' of the API or the control API, or a list of values known without asking. */
  from: string | (() => unknown[] | Promise<unknown[]>)
  take?: (item: any) => unknown
}

/**
 * A run's world: a fresh copy of the template in its own mock, with its clients and the pools
 * requests take ids from, listed through the API when first needed and listed again after
 * anything may have changed them.
 */
export class FuzzWorld {
  readonly mock: TestMock
  readonly control: ApiClient
  readonly oauth: ApiClient
  private readonly cache = new Map<string, unknown[]>()
  /** Ids the run made that no list shows (uploaded attachments). */
  private readonly made = new Map<string, unknown[]>()
  private readonly uploads: string

  constructor(readonly template: FuzzTemplate) {
    // Links, not copies: the mock never writes to a stored upload, only adds and removes files.
    this.uploads = mkdtempSync(join(tmpdir(), 'ivs-mock-fuzz-run-'))
    for (const file of readdirSync(template.uploads)) linkSync(join(template.uploads, file), join(this.uploads, file))
    this.mock = createTestMock({ world: template.world, blobs: new BlobStore({ dir: this.uploads, samplesDir }) })
    this.control = this.mock.control
    this.oauth = new ApiClient(this.mock.app, undefined, '')
  }

  api(team: 'own' | 'foreign', token?: string): ApiClient {
    return new ApiClient(this.mock.app, token ?? this.template[team].tokens.owner)
  }

  /** Forget every pool: something may have changed. */
  changed(): void {
    this.cache.clear()
  }

  /** Keeps an id the run made that no list shows, for later requests to use. */
  remember(pool: string, value: unknown): void {
    this.made.set(pool, [...(this.made.get(pool) ?? []), value])
  }

  /** Removes the run's uploads. */
  dispose(): void {
    rmSync(this.uploads, { recursive: true, force: true })
  }

  /** The values of a pool (ids, references, tokens), listed now or earlier in the run. */
  async pool(name: string, team: 'own' | 'foreign' = 'own'): Promise<unknown[]> {
    const key = `${team}:${name}`
    const cached = this.cache.get(key)
    if (cached) return cached
    const values = [...(await this.list(this.source(name, team))), ...(team === 'own' ? (this.made.get(name) ?? []) : [])]
    this.cache.set(key, values)
    return values
  }

  /** The value a PoolRef stands for (its pool's index-th, round and round), or a fresh OAuth code. */
  async fill(ref: PoolRef): Promise<unknown> {
    if (ref.pool === 'oauthCodes') return this.freshCode(ref.index)
    const values = await this.pool(ref.pool)
    return values.length === 0 ? (ref.type === 'integer' ? 987_654 : '6f1c1e52-7d4e-4c55-9d8c-3a1b2c3d4e5f') : values[ref.index % values.length]
  }

  private source(name: string, team: 'own' | 'foreign'): PoolSource {
    const own = this.template.own
    const named: Record<string, PoolSource> = {
      clients: { team, from: 'GET /api/v2/clients' },
      organisations: { team, from: 'GET /api/v2/organisations' },
      records: { team, from: 'GET /api/v2/records' },
      cases: { team, from: 'GET /api/v2/cases' },
      members: { team, from: 'GET /api/v2/team/members' },
      templates: { team, from: 'GET /api/v2/templates/records' },
      documentTemplates: { team, from: 'GET /api/v2/templates/documents' },
      documents: { team, from: 'GET /api/v2/documents' },
      attachments: { team, from: () => this.attachments(team) },
      formTemplates: { team, from: 'GET /api/v2/form-templates', take: (item) => item.reference },
      webhooks: { team, from: 'GET /api/v2/webhooks' },
      checks: { team, from: () => this.checks(team) },
      teams: { team, from: () => [this.template[team].id] },
      // A run may drop them (DELETE /_mock/teams/{id}): only those still there.
      disposableTeams: { team, from: () => [this.template.disposable.id, this.template.foreign.id].filter((id) => this.mock.store.team(id) !== undefined) },
      tokens: { team, from: () => Object.values(this.template[team].tokens) },
      consentMembers: { team, from: 'GET /api/v2/team/members', take: (item) => `${this.template[team].id}:${String(item.id)}` },
      oauthClients: { team, from: 'GET /_mock/oauth/clients', take: (item) => item.client_id },
      oauthSecrets: { team, from: 'GET /_mock/oauth/clients', take: (item) => item.client_secret },
      oauthRedirects: { team, from: 'GET /_mock/oauth/clients', take: (item) => item.redirect_uris[0] },
      refreshTokens: { team, from: () => [this.template.refreshToken] },
      operations: { team, from: () => ['clients.list', 'clients.create', 'records.get', 'none'] },
      ownTeam: { team, from: () => [own.id] },
      snapshots: { team, from: `GET ${SURFACES.control.base}/teams/${String(this.template.disposable.id)}/snapshots` },
    }
    const source = named[name]
    if (source) return source
    // Anything else is a list URL: the path params' pools (/clients/12/files).
    if (name.startsWith('/')) return { team, from: `GET ${name}`, take: name.endsWith('/forms') || name === '/api/v2/form-templates' ? (item) => item.reference : undefined }
    throw new Error(`fuzz world: no pool ${name}`)
  }

  private async list(source: PoolSource): Promise<unknown[]> {
    if (typeof source.from === 'function') return await source.from()
    const url = source.from.slice('GET '.length)
    const [path, search] = url.split('?') as [string, string | undefined]
    const query = Object.fromEntries(new URLSearchParams(search ?? ''))
    const client = path.startsWith('/_mock') ? new ApiClient(this.mock.app, undefined, '') : new ApiClient(this.mock.app, this.template[source.team].tokens.owner, '')
    const res = await client.get(path, { limit: 100, ...query })
    if (res.status !== 200) return []
    const items = (res.body?.data ?? []) as any[]
    return items.map(source.take ?? ((item) => item.id)).filter((value) => value !== undefined && value !== null)
  }

  /**
   * Attachment ids (there is no list of attachments): those uploaded when the world was built, and
   * those of the library's documents, the client files and the first records' documents.
   */
  private async attachments(team: 'own' | 'foreign'): Promise<unknown[]> {
    const api = this.api(team)
    const ids = new Set<unknown>(team === 'own' ? this.template.attachments : [])
    for (const document of (await api.get('/documents', { expand: 'attachment', limit: 100 })).body?.data ?? []) ids.add(document.attachment?.id)
    for (const file of (await api.get('/files', { limit: 100 })).body?.data ?? []) ids.add(file.attachment?.id)
    for (const record of (await this.pool('records', team)).slice(0, 4)) {
      for (const document of (await api.get(`/records/${String(record)}/documents`, { expand: 'attachments', limit: 100 })).body?.data ?? []) {
        for (const attachment of document.attachments ?? []) ids.add(typeof attachment === 'object' ? attachment?.id : attachment)
      }
    }
    ids.delete(undefined)
    return [...ids]
  }

  /** Check ids: those of the steps of the team's first records (there is no list of checks). */
  private async checks(team: 'own' | 'foreign'): Promise<unknown[]> {
    const api = this.api(team)
    const records = (await this.pool('records', team)).slice(0, 4)
    const ids: unknown[] = []
    for (const record of records) {
      const steps = await api.get(`/records/${String(record)}/steps`, { limit: 100 })
      for (const step of (steps.body?.data ?? []) as Array<{ check?: unknown }>) if (typeof step.check === 'number') ids.push(step.check)
    }
    return ids
  }

  private async freshCode(index: number): Promise<string> {
    const clients = (await this.control.get('/oauth/clients')).body.data as Array<{ client_id: string; redirect_uris: string[] }>
    const client = clients[index % clients.length]
    if (!client) return 'no-client'
    const res = await this.control.post('/oauth/authorize', { client_id: client.client_id, redirect_uri: client.redirect_uris[0], token: this.template.own.tokens.member })
    return res.status === 201 ? (res.body.code as string) : 'no-code'
  }
}
