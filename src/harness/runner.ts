// The scenario runner: every scenario against a target over HTTP, each in a fresh team when the
// target has the mock's control API (tokens from options otherwise), every answer judged by the
// contracts (Conformance) and by the scenario's own expectations. It knows the target only by its
// base URL, so it runs the same against the mock and against a real deployment.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { loadContracts, type AjvContracts } from '../contracts/ajv.ts'
import type { Contracts, OperationContract } from '../contracts/load.ts'
import type { Expect, Matcher, Poll, Role } from '../contracts/scenario.generated.ts'
import { Conformance } from './conformance.ts'
// The check the package publishes for receivers (ivs-mock/webhooks): the runner trusts a delivery as a user's receiver would.
import { verifySignature } from '../webhook-delivery/verify.js'
import { Receiver, type Delivery } from './receiver.ts'
import { TOKEN_ROLES, type TokenRole } from './roles.ts'
import { defaultSamplesDir, loadScenarios, stepKind, stepOperationId, type ControlStep, type LoadedScenario, type OperationStep, type PathStep, type ReceiveStep, type Step } from './scenarios.ts'
import { excerpt, interpolate, mismatch, valueAt, VariableError, type Variables } from './values.ts'

export type Outcome = 'passed' | 'failed' | 'skipped'

export interface StepReport {
  name: string
  kind: 'operation' | 'path' | 'control' | 'receive'
  /** The operation the request reached (undefined for a receive step or an unknown route). */
  operationId?: string
  method?: string
  url?: string
  /** The HTTP status of the answer (undefined when there was none). */
  status?: number
  outcome: Outcome
  /** Why the step failed: one message per difference. */
  failures: string[]
  skipReason?: string
  /** What was sent and what came back, in short (for failure reports). */
  request?: string
  response?: string
  durationMs: number
}

export interface ScenarioReport {
  name: string
  file: string
  description: string
  tags: string[]
  outcome: Outcome
  skipReason?: string
  /** Failures outside the steps (a fresh team that could not be made). */
  failures: string[]
  steps: StepReport[]
  durationMs: number
}

export interface RunReport {
  base: string
  /** Whether the target had the mock's control API. */
  control: boolean
  startedAt: string
  durationMs: number
  passed: number
  failed: number
  skipped: number
  scenarios: ScenarioReport[]
}

export interface RunOptions {
  /** The API base URL, ending in /api/v2 (http://127.0.0.1:4010/api/v2). */
  base: string
  /** Scenarios already loaded, or files and folders to load them from. */
  scenarios: LoadedScenario[] | string[]
  /** Tokens by role for a target without the control API (a target with it gets a fresh team per scenario). */
  tokens?: Partial<Record<TokenRole, string>>
  contracts?: AjvContracts
  /** Time limit of each request (default 30 s). */
  timeoutMs?: number
  /** Scenarios run at once (default 4). */
  concurrency?: number
  /** Stop starting scenarios after the first failure. */
  bail?: boolean
  /** Without the control API, skip control steps and retry steps with `poll` until they hold. */
  wait?: boolean
  /** Leave what the scenarios made (teams on the mock, resources on a real target). */
  keep?: boolean
  /** Only scenarios with mutates: false. */
  readOnly?: boolean
  /** Only scenarios whose name (or file) matches. */
  grep?: RegExp
  /** Only scenarios with at least one of these tags. */
  tags?: string[]
  /** A public address that forwards to the runner's receiver (for a target that cannot reach loopback). */
  receiverUrl?: string
  /** The port of the runner's receiver on 127.0.0.1 (default: a free one), for a forward set up in advance. */
  receiverPort?: number
  /** Where upload samples are (default: fixtures/samples). */
  samplesDir?: string
  /** Called with the scenarios that will run, once selected (before any starts). */
  onSelected?: (scenarios: LoadedScenario[]) => void
  /** Called as each scenario starts and ends (progress reporting). */
  onScenarioStart?: (scenario: LoadedScenario) => void
  onScenarioEnd?: (report: ScenarioReport) => void
}

/** The target could not be reached at all (exit 2). */
export class TargetUnreachableError extends Error {}

/** Options that cannot work (exit 2). */
export class RunUsageError extends Error {}

interface Answer {
  status: number
  headers: Headers
  body: unknown
  text: string
}

/** What captures read from an answer or a delivery. */
interface AnswerView {
  status?: number
  body: unknown
  header: (name: string) => string | null | undefined
}

interface Exchange {
  method: string
  url: string
  requestExcerpt: string
  answer?: Answer
  /** Why no answer came (timeout, connection refused). */
  error?: string
}

const MEDIA_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.pdf': 'application/pdf',
  '.gif': 'image/gif',
  '.txt': 'text/plain',
}

const isLoopback = (url: URL) => ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname)

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  if ((error as Error).name === 'TimeoutError') return 'timed out'
  return cause?.code ?? cause?.message ?? (error as Error).message
}

/** The JSON body of an answer, its text, or a note for binary content. */
async function readAnswer(response: Response): Promise<Answer> {
  const type = response.headers.get('content-type') ?? ''
  if (/json|^text\//i.test(type) || type === '') {
    const text = await response.text()
    let body: unknown
    try {
      body = text === '' ? undefined : JSON.parse(text)
    } catch {
      body = undefined
    }
    return { status: response.status, headers: response.headers, body, text }
  }
  const bytes = (await response.arrayBuffer()).byteLength
  return { status: response.status, headers: response.headers, body: undefined, text: bytes === 0 ? '' : `[${bytes} bytes of ${type}]` }
}

class HttpClient {
  constructor(private readonly timeoutMs: number) {}

  async send(method: string, url: string, init: { headers: Record<string, string>; body?: string | FormData; excerpt?: string }): Promise<Exchange> {
    const requestExcerpt = `${method} ${url}${init.excerpt ? ` ${init.excerpt}` : ''}`
    try {
      const response = await fetch(url, { method, headers: init.headers, body: init.body, signal: AbortSignal.timeout(this.timeoutMs), redirect: 'manual' })
      return { method, url, requestExcerpt, answer: await readAnswer(response) }
    } catch (error) {
      return { method, url, requestExcerpt, error: reasonOf(error) }
    }
  }
}

/** A stop of the rest of a scenario: its reason and whether it is a failure or a skip. */
class Halt extends Error {
  constructor(
    readonly outcome: 'failed' | 'skipped',
    readonly reason: string,
  ) {
    super(reason)
  }
}

interface Identity {
  tokens: Partial<Record<TokenRole, string>>
  teamId?: number | string
  users: Record<string, { id: unknown; name: unknown }>
  /** Teams made on the mock for this scenario, dropped at its end. */
  teams: (number | string)[]
}

interface Cleanup {
  op: OperationContract
  params: Record<string, string>
  token: string | undefined
}

/** A DELETE that undoes what a POST made: the operation at the POST's path plus one parameter. */
function undoOperationOf(contracts: Contracts, created: OperationContract): OperationContract | undefined {
  if (created.method !== 'POST') return undefined
  for (const op of contracts.operations.values()) {
    if (op.surface !== 'api' || op.method !== 'DELETE') continue
    const last = op.pathParams[op.pathParams.length - 1]
    if (last && op.path === `${created.path}/{${last}}`) return op
  }
  return undefined
}

const RATE_LIMIT_RETRIES = 3
const RATE_LIMIT_WAIT_LIMIT_S = 60

const successful = (status: number) => status >= 200 && status < 300

export class Runner {
  readonly contracts: AjvContracts
  readonly conformance: Conformance
  private readonly http: HttpClient
  private readonly base: string
  private readonly origin: string
  private readonly runId = randomBytes(3).toString('hex')
  private control = false
  private receiver: Receiver | undefined
  private receiverReachable = false
  private readonly usersByToken = new Map<string, Promise<{ id: unknown; name: unknown } | undefined>>()
  private readonly teamsByToken = new Map<string, Promise<unknown>>()

  constructor(private readonly options: RunOptions) {
    this.contracts = options.contracts ?? loadContracts()
    this.conformance = new Conformance(this.contracts)
    this.http = new HttpClient(options.timeoutMs ?? 30_000)
    this.base = options.base.replace(/\/+$/, '')
    if (!/^https?:\/\/[^/]+.*\/api\/v2$/.test(this.base)) throw new RunUsageError(`the base URL must be the API's, ending in /api/v2 (got ${options.base})`)
    this.origin = this.base.slice(0, -'/api/v2'.length)
  }

  /** Runs the selected scenarios; the report lists each with its steps. */
  async run(): Promise<RunReport> {
    const began = performance.now()
    const startedAt = new Date().toISOString()
    const scenarios = this.select(
      typeof this.options.scenarios[0] === 'string'
        ? loadScenarios(this.options.scenarios as string[], this.contracts, { samplesDir: this.options.samplesDir })
        : (this.options.scenarios as LoadedScenario[]),
    )
    await this.probe()
    if (scenarios.length === 0) return { base: this.base, control: this.control, startedAt, durationMs: 0, passed: 0, failed: 0, skipped: 0, scenarios: [] }
    this.options.onSelected?.(scenarios)
    if (scenarios.some((scenario) => scenario.steps.some((step) => stepKind(step) === 'receive') || JSON.stringify(scenario).includes('{{receiver.url}}'))) {
      try {
        this.receiver = await Receiver.start(this.options.receiverPort)
      } catch (error) {
        throw new RunUsageError(`cannot start the webhook receiver on 127.0.0.1:${this.options.receiverPort ?? 0}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
      }
      this.receiverReachable = this.options.receiverUrl !== undefined || isLoopback(new URL(this.base))
    }
    const reports: ScenarioReport[] = new Array<ScenarioReport>(scenarios.length)
    let next = 0
    let bailed = false
    const worker = async () => {
      while (next < scenarios.length) {
        const index = next++
        const scenario = scenarios[index] as LoadedScenario
        this.options.onScenarioStart?.(scenario)
        const report = bailed ? this.skipped(scenario, '--bail: an earlier scenario failed') : await this.runScenario(scenario, index)
        if (report.outcome === 'failed' && this.options.bail) bailed = true
        reports[index] = report
        this.options.onScenarioEnd?.(report)
      }
    }
    try {
      await Promise.all(Array.from({ length: Math.max(1, Math.min(this.options.concurrency ?? 4, scenarios.length)) }, worker))
    } finally {
      await this.receiver?.close()
    }
    const count = (outcome: Outcome) => reports.filter((report) => report.outcome === outcome).length
    return {
      base: this.base,
      control: this.control,
      startedAt,
      durationMs: Math.round(performance.now() - began),
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      scenarios: reports,
    }
  }

  private select(scenarios: LoadedScenario[]): LoadedScenario[] {
    const { grep, tags, readOnly } = this.options
    return scenarios.filter(
      (scenario) =>
        (!grep || grep.test(scenario.name) || grep.test(scenario.file)) &&
        (!tags || tags.length === 0 || tags.some((tag) => scenario.tags?.includes(tag))) &&
        (!readOnly || scenario.mutates === false),
    )
  }

  /** Whether the target answers at all (else TargetUnreachableError), and whether it has the control API. */
  private async probe(): Promise<void> {
    const status = await this.http.send('GET', `${this.base}/status`, { headers: {} })
    if (!status.answer) throw new TargetUnreachableError(`cannot reach ${this.base} (GET /status: ${status.error ?? 'no answer'})`)
    const clock = await this.http.send('GET', `${this.origin}/_mock/clock`, { headers: { Accept: 'application/json' } })
    this.control = clock.answer?.status === 200 && (clock.answer.body as { object?: unknown } | undefined)?.object === 'mock_clock'
  }

  private skipped(scenario: LoadedScenario, reason: string): ScenarioReport {
    return {
      name: scenario.name,
      file: scenario.file,
      description: scenario.description,
      tags: scenario.tags ?? [],
      outcome: 'skipped',
      skipReason: reason,
      failures: [],
      steps: scenario.steps.map((step) => ({ name: step.name, kind: stepKind(step), operationId: stepOperationId(step, this.conformance), outcome: 'skipped', failures: [], skipReason: reason, durationMs: 0 })),
      durationMs: 0,
    }
  }

  private rolesOf(scenario: LoadedScenario): Set<TokenRole> {
    const roles = new Set<TokenRole>()
    for (const step of scenario.steps) {
      const kind = stepKind(step)
      if (kind !== 'operation' && kind !== 'path') continue
      const role = (step as OperationStep).as ?? 'owner'
      if (role !== 'none') roles.add(role)
    }
    return roles
  }

  private async runScenario(scenario: LoadedScenario, index: number): Promise<ScenarioReport> {
    const began = performance.now()
    const report: ScenarioReport = { ...this.skipped(scenario, ''), outcome: 'passed', skipReason: undefined }
    report.steps = []
    const key = `${index}-${scenario.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 40)}`
    const cleanups: Cleanup[] = []
    let identity: Identity | undefined
    try {
      identity = await this.identify(scenario)
      const variables = this.builtIns(identity, key)
      for (const [name, value] of Object.entries(scenario.vars ?? {})) {
        try {
          variables[name] = interpolate(value, variables)
        } catch (error) {
          throw error instanceof VariableError ? new Halt('failed', `vars.${name}: ${error.message}`) : error
        }
      }
      let halt: Halt | undefined
      const uncaptured = new Map<string, string>()
      for (const step of scenario.steps) {
        if (halt) {
          report.steps.push({ name: step.name, kind: stepKind(step), operationId: stepOperationId(step, this.conformance), outcome: 'skipped', failures: [], skipReason: halt.reason, durationMs: 0 })
          continue
        }
        const { stepReport, stop } = await this.runStep(step, variables, identity, key, cleanups, uncaptured)
        report.steps.push(stepReport)
        halt = stop
      }
      if (report.steps.some((step) => step.outcome === 'failed')) report.outcome = 'failed'
      else if (halt?.outcome === 'skipped') {
        report.outcome = 'skipped'
        report.skipReason = halt.reason
      }
    } catch (error) {
      if (error instanceof Halt) {
        report.outcome = error.outcome
        if (error.outcome === 'skipped') report.skipReason = error.reason
        else report.failures.push(error.reason)
        report.steps = this.skipped(scenario, error.outcome === 'skipped' ? error.reason : 'not run: the scenario could not start').steps
      } else {
        report.outcome = 'failed'
        report.failures.push(`the runner failed: ${(error as Error).message}`)
      }
    } finally {
      this.receiver?.forget(key)
      if (!this.options.keep) await this.cleanUp(cleanups, identity)
    }
    report.durationMs = Math.round(performance.now() - began)
    return report
  }

  /** Tokens, team and users for a scenario: a fresh team on the mock, the given tokens elsewhere. */
  private async identify(scenario: LoadedScenario): Promise<Identity> {
    const roles = this.rolesOf(scenario)
    const legacyTeam = scenario.team?.cases === false
    if (this.control) {
      const identity: Identity = { tokens: {}, users: {}, teams: [] }
      const main = await this.freshTeam(scenario.team ?? {}, identity)
      Object.assign(identity.tokens, main.tokens)
      identity.teamId = main.team.id
      for (const [role, user] of Object.entries(main.users)) identity.users[role] = { id: user.id, name: user.name }
      if (roles.has('other-team')) identity.tokens['other-team'] = (await this.freshTeam({}, identity)).tokens.owner
      if (roles.has('legacy')) identity.tokens.legacy = legacyTeam ? main.tokens.owner : (await this.freshTeam({ cases: false }, identity)).tokens.owner
      return identity
    }
    const given = this.options.tokens ?? {}
    // A scenario that needs a team without cases runs as the legacy team's owner on a real target.
    const tokens: Partial<Record<TokenRole, string>> = legacyTeam ? { owner: given.legacy, legacy: given.legacy } : { ...given }
    for (const role of roles) {
      if (!tokens[role]) {
        const reason = legacyTeam
          ? `needs a team without cases: give its owner's token with --role-token legacy=<token> (or IVS_TOKEN_LEGACY)${role === 'owner' || role === 'legacy' ? '' : `; the ${role} role has none there`}`
          : `needs a token for the ${role} role (--role-token ${role}=<token> or IVS_TOKEN_${role.toUpperCase().replace(/-/g, '_')})`
        throw new Halt('skipped', reason)
      }
    }
    const identity: Identity = { tokens, users: {}, teams: [] }
    const text = JSON.stringify(scenario)
    if (text.includes('{{team.id') && tokens.owner) identity.teamId = ((await this.targetTeam(tokens.owner)) as { id?: unknown } | undefined)?.id as number | undefined
    if (text.includes('{{users.')) {
      for (const role of TOKEN_ROLES) {
        const token = tokens[role]
        const user = token ? await this.userOf(token) : undefined
        if (user) identity.users[role] = user
      }
    }
    return identity
  }

  private async freshTeam(body: unknown, identity: Identity): Promise<{ team: { id: number }; tokens: Record<string, string>; users: Record<string, { id: unknown; name: unknown }> }> {
    const made = await this.http.send('POST', `${this.origin}/_mock/teams`, { headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: JSON.stringify(body) })
    if (made.answer?.status !== 201) throw new Halt('failed', `could not make a fresh team: POST /_mock/teams ${JSON.stringify(body)} answered ${made.answer ? `${made.answer.status} ${made.answer.text.slice(0, 300)}` : made.error}`)
    const team = made.answer.body as { team: { id: number }; tokens: Record<string, string>; users: Record<string, { id: unknown; name: unknown }> }
    identity.teams.push(team.team.id)
    return team
  }

  /** GET /team with a token, once per token and run. */
  private targetTeam(token: string): Promise<unknown> {
    let team = this.teamsByToken.get(token)
    if (!team) {
      team = this.http
        .send('GET', `${this.base}/team`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })
        .then((exchange) => (exchange.answer?.status === 200 ? exchange.answer.body : undefined))
      this.teamsByToken.set(token, team)
    }
    return team
  }

  private userOf(token: string): Promise<{ id: unknown; name: unknown } | undefined> {
    let user = this.usersByToken.get(token)
    if (!user) {
      user = this.http
        .send('GET', `${this.base}/team/me`, { headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } })
        .then((exchange) => {
          const body = exchange.answer?.status === 200 ? (exchange.answer.body as { id: unknown; name: unknown }) : undefined
          return body && { id: body.id, name: body.name }
        })
      this.usersByToken.set(token, user)
    }
    return user
  }

  private builtIns(identity: Identity, key: string): Variables {
    const receiverBase = (this.options.receiverUrl ?? this.receiver?.origin)?.replace(/\/+$/, '')
    const variables: Variables = { 'run.id': this.runId, base: this.base, users: identity.users }
    if (identity.teamId !== undefined) variables['team.id'] = identity.teamId
    if (receiverBase) variables['receiver.url'] = `${receiverBase}/${key}`
    return variables
  }

  /**
   * Runs one step. `uncaptured` names the variables that skipped steps would have captured (a
   * control step skipped with --wait), so a step that needs one is skipped too, not failed.
   */
  private async runStep(step: Step, variables: Variables, identity: Identity, key: string, cleanups: Cleanup[], uncaptured: Map<string, string>): Promise<{ stepReport: StepReport; stop?: Halt }> {
    const began = performance.now()
    const kind = stepKind(step)
    const stepReport: StepReport = { name: step.name, kind, operationId: stepOperationId(step, this.conformance), outcome: 'passed', failures: [], durationMs: 0 }
    const finish = (stop?: Halt) => {
      stepReport.durationMs = Math.round(performance.now() - began)
      if (stepReport.failures.length > 0) {
        stepReport.outcome = 'failed'
        return { stepReport, stop: stop ?? new Halt('failed', `not run: step "${step.name}" failed`) }
      }
      return { stepReport, stop }
    }
    try {
      if (kind === 'control' && !this.control) {
        const reason = `needs the mock's control API (/_mock), which ${this.base} does not have`
        stepReport.outcome = 'skipped'
        stepReport.skipReason = reason
        for (const name of Object.keys(step.capture ?? {})) uncaptured.set(name, step.name)
        return finish(this.options.wait ? undefined : new Halt('skipped', reason))
      }
      if (kind === 'receive') {
        if (!this.receiverReachable || !this.receiver) {
          const reason = `needs the target to reach the runner's webhook receiver (a loopback target, or --receiver-url)`
          stepReport.outcome = 'skipped'
          stepReport.skipReason = reason
          return finish(new Halt('skipped', reason))
        }
        await this.receive(step as ReceiveStep, variables, key, stepReport)
        return finish()
      }
      await this.call(step as OperationStep | PathStep | ControlStep, variables, identity, stepReport, cleanups)
      return finish()
    } catch (error) {
      if (!(error instanceof VariableError)) throw error
      const skippedStep = uncaptured.get(error.variable.split('.')[0] ?? '')
      if (skippedStep === undefined) {
        stepReport.failures.push(error.message)
      } else {
        stepReport.failures = []
        stepReport.outcome = 'skipped'
        stepReport.skipReason = `needs {{${error.variable}}}, which the skipped step "${skippedStep}" captures`
        for (const name of Object.keys(step.capture ?? {})) uncaptured.set(name, step.name)
      }
      return finish()
    }
  }

  /** An operation, path or control step: the request, then the contract and the expectations, retried while `poll` allows. */
  private async call(step: OperationStep | PathStep | ControlStep, variables: Variables, identity: Identity, stepReport: StepReport, cleanups: Cleanup[]): Promise<void> {
    const control = 'control' in step
    const role: Role = control ? 'none' : ((step as OperationStep).as ?? 'owner')
    const token = role === 'none' ? undefined : identity.tokens[role]
    const params = interpolate((step as OperationStep).params ?? {}, variables) as Record<string, unknown>
    const declared = 'operation' in step ? this.contracts.operation(step.operation) : control ? this.contracts.operation(step.control) : undefined
    const method = declared?.method ?? (step as PathStep).method
    const template = declared?.path ?? (step as PathStep).path
    const missing: string[] = []
    const path = template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
      if (params[name] === undefined || params[name] === null) missing.push(name)
      return encodeURIComponent(String(params[name]))
    })
    if (missing.length > 0 && !('url' in step && step.url !== undefined)) {
      stepReport.failures.push(`params.${missing.join(', params.')} missing for ${template}`)
      return
    }
    const op = declared ?? this.conformance.match(method, path)?.op
    stepReport.operationId = op?.id
    const query = new URLSearchParams()
    for (const [name, value] of Object.entries((interpolate((step as OperationStep).query ?? {}, variables) as Record<string, unknown>) ?? {})) {
      query.append(name, Array.isArray(value) ? value.map(String).join(',') : String(value))
    }
    let url = `${control ? `${this.origin}/_mock` : this.base}${path}${query.size > 0 ? `?${query.toString()}` : ''}`
    if ('url' in step && step.url !== undefined) {
      const given = String(interpolate(step.url, variables))
      const within = given.startsWith(`${this.base}/`) ? new URL(given).pathname.slice(new URL(this.base).pathname.length) : undefined
      if (within === undefined || this.conformance.match(method, within)?.op.id !== op?.id) {
        stepReport.failures.push(`url: ${given} is not ${op?.id ?? 'the operation'} under the target's API base ${this.base}`)
        return
      }
      url = given
    }
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    let body: string | FormData | undefined
    let bodyExcerpt: string | undefined
    if (step.body !== undefined) {
      const json = interpolate(step.body, variables)
      body = JSON.stringify(json)
      bodyExcerpt = excerpt(json, 300)
      headers['Content-Type'] = 'application/json'
    }
    if ('rawBody' in step && step.rawBody !== undefined) {
      body = interpolate(step.rawBody, variables) as string
      bodyExcerpt = excerpt(body, 300)
    }
    if ('upload' in step && step.upload) body = this.form(step.upload, variables, (text) => (bodyExcerpt = text))
    if ('headers' in step) {
      for (const [name, value] of Object.entries((interpolate(step.headers ?? {}, variables) as Record<string, unknown>) ?? {})) headers[name] = String(value)
    }
    const expectations = interpolate(step.expect ?? {}, variables) as Expect
    const poll: Poll | undefined = 'poll' in step && this.options.wait && !this.control ? step.poll : undefined
    const deadline = performance.now() + (poll?.timeout ?? 120) * 1000
    for (let attempt = 1; ; attempt++) {
      stepReport.failures = []
      const exchange = await this.sendWaitingOutRateLimit(method, url, { headers, body, excerpt: bodyExcerpt }, expectations)
      Object.assign(stepReport, { method, url, request: exchange.requestExcerpt, status: exchange.answer?.status })
      if (!exchange.answer) {
        stepReport.failures.push(`no answer: ${exchange.error ?? 'unknown error'}`)
      } else {
        const answer = exchange.answer
        stepReport.response = `${answer.status} ${answer.text.length > 500 ? `${answer.text.slice(0, 500)}…` : answer.text}`.trim()
        this.judge(op, method, answer, expectations, stepReport)
        if (stepReport.failures.length === 0) {
          this.capture(step.capture, { status: answer.status, body: answer.body, header: (name) => answer.headers.get(name) }, variables, stepReport)
          if (op && successful(answer.status) && !control) this.remember(op, params, answer, token, cleanups)
        }
      }
      if (stepReport.failures.length === 0 || !poll || performance.now() + (poll.interval ?? 2) * 1000 > deadline) {
        if (poll && stepReport.failures.length > 0) stepReport.failures.push(`still so after polling ${attempt} times for ${poll.timeout ?? 120} s`)
        return
      }
      await new Promise((resolve) => setTimeout(resolve, (poll.interval ?? 2) * 1000))
    }
  }

  /**
   * Sends a request; a 429 the step does not expect is waited out (Retry-After, at most
   * RATE_LIMIT_WAIT_LIMIT_S each time, RATE_LIMIT_RETRIES times), since a real deployment limits
   * the requests of a whole run, not of a scenario.
   */
  private async sendWaitingOutRateLimit(method: string, url: string, init: Parameters<HttpClient['send']>[2], expectations: Expect): Promise<Exchange> {
    const expects429 = [expectations.status].flat().includes(429)
    for (let retry = 0; ; retry++) {
      const exchange = await this.http.send(method, url, init)
      if (exchange.answer?.status !== 429 || expects429 || retry >= RATE_LIMIT_RETRIES) return exchange
      const seconds = Number(exchange.answer.headers.get('retry-after'))
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number.isFinite(seconds) && seconds > 0 ? seconds : 1, RATE_LIMIT_WAIT_LIMIT_S) * 1000))
    }
  }

  private form(upload: NonNullable<OperationStep['upload']>, variables: Variables, describe: (text: string) => void): FormData {
    const samplesDir = this.options.samplesDir ?? defaultSamplesDir(this.contracts)
    const form = new FormData()
    const fields = interpolate(upload.fields ?? {}, variables) as Record<string, unknown>
    for (const [name, value] of Object.entries(fields)) form.append(name, String(value))
    const type = upload.type ?? MEDIA_TYPES[extname(upload.sample).toLowerCase()] ?? 'application/octet-stream'
    const bytes = readFileSync(join(samplesDir, upload.sample))
    form.append(upload.field, new Blob([bytes], { type }), upload.name ?? upload.sample)
    describe(`multipart: ${upload.field}=${upload.name ?? upload.sample} (${type}, ${bytes.length} bytes)${Object.keys(fields).length > 0 ? ` ${excerpt(fields)}` : ''}`)
    return form
  }

  /** The contract's judgement of an answer, then the scenario's own expectations. */
  private judge(op: OperationContract | undefined, method: string, answer: Answer, expectations: Expect, stepReport: StepReport): void {
    const response = { status: answer.status, headers: answer.headers, body: answer.body, text: answer.text }
    const violations = op ? this.conformance.checkResponse(op, response) : ['HEAD', 'OPTIONS'].includes(method) ? [] : this.conformance.checkUnknownRoute(response)
    for (const violation of violations) stepReport.failures.push(`contract${op ? ` of ${op.id}` : ''}: ${violation.at}: ${violation.message}`)
    const statuses = expectations.status === undefined ? undefined : Array.isArray(expectations.status) ? expectations.status : [expectations.status]
    if (statuses ? !statuses.includes(answer.status) : !successful(answer.status)) {
      stepReport.failures.push(`status: expected ${statuses ? statuses.join(' or ') : 'a 2xx'}, got ${answer.status}`)
    }
    this.expectHeaders(expectations.headers, (name) => answer.headers.get(name), stepReport)
    this.expectBody(expectations.body, answer.body, stepReport)
  }

  private expectHeaders(expected: Record<string, Matcher> | undefined, read: (name: string) => string | null | undefined, stepReport: StepReport): void {
    for (const [name, matcher] of Object.entries(expected ?? {})) {
      const value = read(name)
      // Header values are text: a number or boolean in the scenario means its text.
      const asText = typeof matcher === 'number' || typeof matcher === 'boolean' ? String(matcher) : matcher
      const problem = mismatch({ found: value !== null && value !== undefined, value: value ?? undefined }, asText)
      if (problem) stepReport.failures.push(`header ${name}: ${problem}`)
    }
  }

  private expectBody(expected: Record<string, Matcher> | undefined, body: unknown, stepReport: StepReport): void {
    for (const [path, matcher] of Object.entries(expected ?? {})) {
      const problem = mismatch(valueAt(body, path), matcher)
      if (problem) stepReport.failures.push(`body${path === '$' ? '' : `.${path}`}: ${problem}`)
    }
  }

  private capture(capture: Record<string, string> | undefined, answer: AnswerView, variables: Variables, stepReport: StepReport): void {
    for (const [name, source] of Object.entries(capture ?? {})) {
      let found: { found: boolean; value: unknown }
      if (source === 'status') found = { found: answer.status !== undefined, value: answer.status }
      else if (source.startsWith('header.')) {
        const value = answer.header(source.slice('header.'.length))
        found = { found: value !== null && value !== undefined, value }
      } else found = valueAt(answer.body, source === 'body' ? '$' : source.slice('body.'.length))
      if (!found.found) stepReport.failures.push(`capture ${name}: ${source} is absent`)
      else variables[name] = found.value
    }
  }

  /** What a real target must lose again at the end: each thing a POST made that a DELETE undoes. */
  private remember(op: OperationContract, params: Record<string, unknown>, answer: Answer, token: string | undefined, cleanups: Cleanup[]): void {
    if (this.control) return
    const id = (answer.body as { id?: unknown } | undefined)?.id
    const undo = id === undefined ? undefined : undoOperationOf(this.contracts, op)
    if (!undo) return
    const last = undo.pathParams[undo.pathParams.length - 1] as string
    cleanups.push({ op: undo, params: { ...Object.fromEntries(Object.entries(params).map(([name, value]) => [name, String(value)])), [last]: String(id) }, token })
  }

  private async cleanUp(cleanups: Cleanup[], identity: Identity | undefined): Promise<void> {
    for (const { op, params, token } of cleanups.reverse()) {
      const path = op.path.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''))
      await this.http.send('DELETE', `${this.base}${path}`, { headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) } })
    }
    for (const team of identity?.teams ?? []) await this.http.send('DELETE', `${this.origin}/_mock/teams/${team}`, { headers: {} })
  }

  private async receive(step: ReceiveStep, variables: Variables, key: string, stepReport: StepReport): Promise<void> {
    const { event, within = 10 } = step.receive
    const receiver = this.receiver as Receiver
    stepReport.url = `${receiver.origin}/${key}`
    const expectations = interpolate(step.expect ?? {}, variables) as NonNullable<ReceiveStep['expect']>
    // Another delivery of the same event (another scenario's, on a shared team) is passed over; when
    // none matches in time, the first of that event is judged, so the failure says what differed.
    const matches = (delivery: Delivery) =>
      Object.entries(expectations.body ?? {}).every(([path, matcher]) => mismatch(valueAt(delivery.body, path), matcher) === undefined)
    const delivery: Delivery | undefined = (await receiver.next(key, event, within * 1000, matches)) ?? (await receiver.next(key, event, 0))
    if (!delivery) {
      const others = receiver.unclaimed(key)
      stepReport.failures.push(`no ${event} delivery arrived within ${within} s${others.length > 0 ? ` (unclaimed: ${others.join(', ')})` : ''}`)
      return
    }
    const text = delivery.raw.toString('utf8')
    stepReport.response = `${text.length > 500 ? `${text.slice(0, 500)}…` : text}`
    const secret = step.receive.secret === undefined ? undefined : (interpolate(step.receive.secret, variables) as string)
    if (secret !== undefined && !verifySignature(delivery.raw, delivery.headers['x-svc-signature'], secret)) {
      stepReport.failures.push(`header X-SVC-Signature: not the base64 HMAC-SHA256 of the body with the webhook's secret (got ${delivery.headers['x-svc-signature'] ?? 'none'})`)
    }
    const validate = this.contracts.schemaValidator('events/delivery')
    if (!validate(delivery.body)) {
      for (const error of validate.errors ?? []) stepReport.failures.push(`contract of the delivery body: body${error.instancePath.replace(/\//g, '.')}: ${error.message ?? error.keyword}`)
    }
    this.expectHeaders(expectations.headers, (name) => delivery.headers[name.toLowerCase()], stepReport)
    this.expectBody(expectations.body, delivery.body, stepReport)
    if (stepReport.failures.length === 0) this.capture(step.capture, { body: delivery.body, header: (name) => delivery.headers[name.toLowerCase()] }, variables, stepReport)
  }
}

/** Runs scenarios against a target and returns the report (see RunOptions). */
export function runScenarios(options: RunOptions): Promise<RunReport> {
  return new Runner(options).run()
}
