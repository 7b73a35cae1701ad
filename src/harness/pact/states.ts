// The provider states `ivs-mock pact verify` knows. Each sets up what an interaction needs through
// the mock's control API and the API, over HTTP, in the interaction's own fresh team, and returns
// the ids the interaction may inject (Pact's fromProviderState). Adding a state is adding a row.

/** Roles of a fresh team's tokens (POST /_mock/teams). */
export const ROLES = ['owner', 'member', 'read-only', 'assigned-only', 'assumed'] as const
export type Role = (typeof ROLES)[number]

/**
 * Whose Authorization the interaction's request carries: a role's token of the interaction's team,
 * none at all, or the header the consumer recorded (to show a 401 for a token of its own).
 */
export type Caller = Role | 'none' | 'recorded'
const CALLERS: readonly string[] = [...ROLES, 'none', 'recorded']

interface FreshTeam {
  team: { id: number }
  cases: boolean
  tokens: Record<Role, string>
}

type Params = Record<string, unknown>
type Injected = Record<string, string | number | boolean>

/** One HTTP answer that a state's set-up did not expect. */
export class StateSetupError extends Error {}

/** What the states of one interaction share: its team, made on first use, and whose token it sends. */
export class InteractionSetup {
  private fresh?: FreshTeam
  caller: Caller = 'owner'

  constructor(private readonly origin: string) {}

  /** The interaction's team: a legacy one (every /cases operation a 403) when cases is false. */
  async team(options: { cases?: boolean } = {}): Promise<FreshTeam> {
    if (this.fresh && options.cases === false && this.fresh.cases) {
      throw new StateSetupError('"the team has no cases" must come before the states that add data to the team')
    }
    this.fresh ??= (await this.call('POST', '/_mock/teams', { name: 'Pact verification', cases: options.cases ?? true })) as unknown as FreshTeam
    return this.fresh
  }

  /** The token the interaction's request carries, if any. */
  get token(): string | undefined {
    return this.fresh && this.caller !== 'none' && this.caller !== 'recorded' ? this.fresh.tokens[this.caller] : undefined
  }

  /** A call of the API (as the team's owner, whatever the interaction's caller). */
  async api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const { tokens } = await this.team()
    return this.call(method, `/api/v2${path}`, body, tokens.owner)
  }

  /** A call of the control API (/_mock). */
  control(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    return this.call(method, `/_mock${path}`, body)
  }

  private async call(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (body !== undefined) headers['Content-Type'] = 'application/json'
    if (token) headers.Authorization = `Bearer ${token}`
    const response = await fetch(`${this.origin}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(10_000) })
    const text = await response.text()
    if (!response.ok) throw new StateSetupError(`${method} ${path} answered ${response.status}: ${text.slice(0, 300)}`)
    return (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>
  }
}

export interface StateDefinition {
  name: string
  summary: string
  /** Parameters it takes (besides `role`, which every state takes), with what each does. */
  params: Record<string, string>
  /** The values it returns for the interaction to inject. */
  returns: string[]
  setup(setup: InteractionSetup, params: Params): Promise<Injected>
}

const text = (params: Params, name: string, fallback: string): string => (typeof params[name] === 'string' ? params[name] : fallback)

const clientParams = {
  first_name: 'the client\'s first name (default "Ann")',
  last_name: 'last name (default "Example")',
  email: 'email (default ann@example.com; a magic tag such as ann+consider@example.com decides check outcomes)',
}

async function createClient(setup: InteractionSetup, params: Params): Promise<number> {
  const client = await setup.api('POST', '/clients', {
    name: { first_name: text(params, 'first_name', 'Ann'), last_name: text(params, 'last_name', 'Example') },
    email: text(params, 'email', 'ann@example.com'),
  })
  return client.id as number
}

interface RecordAnswer {
  id: number
  steps: { id: number; check: number | null }[]
}

async function createRecord(setup: InteractionSetup, params: Params, step: unknown): Promise<{ clientId: number; record: RecordAnswer }> {
  const clientId = await createClient(setup, params)
  const record = (await setup.api('POST', '/records', { client: clientId, steps: [step], notification: false })) as unknown as RecordAnswer
  return { clientId, record }
}

const tokenOf = async (setup: InteractionSetup): Promise<Injected> => {
  await setup.team()
  return setup.token === undefined ? {} : { token: setup.token }
}

export const STATES: StateDefinition[] = [
  {
    name: 'a client exists',
    summary: 'A client of the team.',
    params: clientParams,
    returns: ['clientId', 'token'],
    async setup(setup, params) {
      return { clientId: await createClient(setup, params), ...(await tokenOf(setup)) }
    },
  },
  {
    name: 'a record with a photo ID step exists',
    summary: 'A new record (pending) of a new client, with one check.photo_id step (standard report, passport).',
    params: clientParams,
    returns: ['clientId', 'recordId', 'stepId', 'checkId', 'token'],
    async setup(setup, params) {
      const { clientId, record } = await createRecord(setup, params, { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'] } })
      const [step] = record.steps
      return { clientId, recordId: record.id, stepId: step?.id ?? 0, checkId: step?.check ?? 0, ...(await tokenOf(setup)) }
    },
  },
  {
    name: 'a record with a completed identity check exists',
    summary: 'A record with one check.identity step that the client completed and whose result is in (record complete).',
    params: { ...clientParams, outcome: 'the check\'s outcome: clear (default), consider, rejected, refer, failed or paused' },
    returns: ['clientId', 'recordId', 'stepId', 'checkId', 'token'],
    async setup(setup, params) {
      const { clientId, record } = await createRecord(setup, params, { type: 'check.identity' })
      await setup.control('POST', `/records/${record.id}/complete`, { outcome: text(params, 'outcome', 'clear'), delay_seconds: 0 })
      await setup.control('POST', '/clock/advance', { seconds: 0 })
      const [step] = record.steps
      return { clientId, recordId: record.id, stepId: step?.id ?? 0, checkId: step?.check ?? 0, ...(await tokenOf(setup)) }
    },
  },
  {
    name: 'a case exists',
    summary: 'A case (no items yet) of a new client.',
    params: { ...clientParams, name: 'the case\'s name (default "Onboarding")' },
    returns: ['clientId', 'caseId', 'token'],
    async setup(setup, params) {
      const clientId = await createClient(setup, params)
      const created = await setup.api('POST', '/cases', { client: clientId, name: text(params, 'name', 'Onboarding') })
      return { clientId, caseId: created.id as number, ...(await tokenOf(setup)) }
    },
  },
  {
    name: 'a webhook exists',
    summary: 'A webhook of the team, enabled.',
    params: {
      url: 'its delivery URL (default http://127.0.0.1:9/webhooks, where deliveries fail at once)',
      events: 'the events it subscribes to, a list (default ["*"])',
    },
    returns: ['webhookId', 'token'],
    async setup(setup, params) {
      const events = Array.isArray(params.events) ? params.events : ['*']
      const webhook = await setup.api('POST', '/webhooks', { url: text(params, 'url', 'http://127.0.0.1:9/webhooks'), events })
      return { webhookId: webhook.id as number, ...(await tokenOf(setup)) }
    },
  },
  {
    name: 'the team has no cases',
    summary: 'The interaction\'s team is a legacy team: every /cases operation answers 403. List it before the states that add data.',
    params: {},
    returns: ['token'],
    async setup(setup) {
      await setup.team({ cases: false })
      return tokenOf(setup)
    },
  },
]

/** What an interaction without a provider state gets: a fresh, empty team. */
export const NO_STATE: StateDefinition = {
  name: '',
  summary: 'No provider state: a fresh team with no clients.',
  params: {},
  returns: ['token'],
  setup: tokenOf,
}

/** What the `role` parameter every state takes does. */
export const ROLE_PARAM = `role, the token the request carries: ${ROLES.join(', ')} (the team's token of that role; default owner), none (no Authorization) or recorded (the consumer's own header)`

export function findState(name: string): StateDefinition | undefined {
  return name === '' ? NO_STATE : STATES.find((state) => state.name === name)
}

/** Why a state with these parameters cannot be set up, or undefined when it can. */
export function stateProblem(name: string, params: Params): string | undefined {
  const state = findState(name)
  if (!state) return `unknown provider state "${name}"; the states ivs-mock knows: ${STATES.map((known) => `"${known.name}"`).join(', ')}`
  const unknown = Object.keys(params).filter((param) => param !== 'role' && !(param in state.params))
  if (unknown.length > 0) return `provider state "${name}" takes no parameter ${unknown.join(', ')} (it takes: ${['role', ...Object.keys(state.params)].join(', ')})`
  if (params.role !== undefined && !CALLERS.includes(params.role as string)) return `provider state "${name}": role must be one of ${CALLERS.join(', ')}`
  return undefined
}

/** Sets a state up: the caller first, then the data, and returns the values to inject. */
export async function setUpState(setup: InteractionSetup, name: string, params: Params): Promise<Injected> {
  const problem = stateProblem(name, params)
  const state = findState(name)
  if (problem || !state) throw new StateSetupError(problem)
  if (params.role !== undefined) setup.caller = params.role as Caller
  return state.setup(setup, params)
}

/** The states as docs/checking-your-client.md "Pact" and `pact verify --help` list them. */
export function describeStates(): string[] {
  return [...STATES, NO_STATE].map(
    (state) =>
      `${state.name === '' ? '(no state)' : `"${state.name}"`}: ${state.summary}` +
      `${Object.keys(state.params).length > 0 ? ` Params: ${Object.keys(state.params).join(', ')}.` : ''} Returns: ${state.returns.join(', ')}.`,
  )
}
