// The scenario runner: every scenario against a target over HTTP, each in a fresh team when the
// target has the mock's control API (tokens from options otherwise), every answer judged by the
// contracts (Conformance) and by the scenario's own expectations. It knows the target only by its
// base URL, so it runs the same against the mock and against a real deployment.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import { loadContracts, type AjvContracts } from '../contracts/ajv.ts'
import type { OperationContract } from '../contracts/load.ts'
import type { Expect, Find, Matcher, Poll, Role } from '../contracts/scenario.generated.ts'
import { Conformance } from './conformance.ts'
import { operationOutcomes } from './coverage.ts'
import { crawl, crawlWithoutToken } from './crawl.ts'
import { HttpClient, READ_METHODS, type Answer } from './http.ts'
// The check the package publishes for receivers (ivs-mock/webhooks): the runner trusts a delivery as a user's receiver would.
import { verifySignature } from '../webhook-delivery/verify.js'
import { Receiver, type Delivery } from './receiver.ts'
import type { Outcome, RunReport, ScenarioReport, SkipKind, StepReport } from './report.ts'
import { mergeLeftBehind, ScenarioResidue, SpareOrganisations, type LeftBehind } from './residue.ts'
import type { TokenRole } from './roles.ts'
import { defaultSamplesDir, loadScenarios, notReadOnly, stepKind, stepOperationId, type ControlStep, type LoadedScenario, type OperationStep, type PathStep, type ReceiveStep, type Step } from './scenarios.ts'
import { describeProfile, learnTarget, type TargetProfile } from './target.ts'
import { excerpt, interpolate, mismatch, valueAt, VariableError, type Variables } from './values.ts'

export type { Outcome, RunReport, ScenarioReport, SkipKind, StepReport } from './report.ts'

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
  /**
   * Change nothing, whatever the target: only scenarios with mutates: false, in the tokens' team (no
   * team of their own, even on the mock), then a crawl of the team as it is with the owner's token.
   * Sends GET and HEAD, and the writes a step marks safe (refused or computes); nothing else, and
   * nothing to /_mock but GET.
   */
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
  /** Called with the scenarios that will run, once selected (before any starts); with readOnly the crawl follows them. */
  onSelected?: (scenarios: LoadedScenario[]) => void
  /** Called as each scenario starts and ends (progress reporting). */
  onScenarioStart?: (scenario: LoadedScenario) => void
  onScenarioEnd?: (report: ScenarioReport) => void
}

/** The target could not be reached at all (exit 2). */
export class TargetUnreachableError extends Error {}

/** Options that cannot work (exit 2). */
export class RunUsageError extends Error {}

/** What captures read from an answer or a delivery. */
interface AnswerView {
  status?: number
  body: unknown
  header: (name: string) => string | null | undefined
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

/** A stop of the rest of a scenario: its reason and whether it is a failure or a skip. */
class Halt extends Error {
  constructor(
    readonly outcome: 'failed' | 'skipped',
    readonly reason: string,
    readonly kind: SkipKind = 'not-run',
  ) {
    super(reason)
  }
}

/** The tag of scenarios that judge counts or orders of a whole team: they need a team of their own. */
const FRESH_TEAM_TAG = 'fresh-team'

interface Identity {
  tokens: Partial<Record<TokenRole, string>>
  teamId?: unknown
  users: Partial<Record<TokenRole, { id: unknown; name: unknown }>>
  /** Teams made on the mock for this scenario, dropped at its end. */
  teams: (number | string)[]
}

const successful = (status: number) => status >= 200 && status < 300

/** The flag that gives a role its token. */
const tokenFlag = (role: TokenRole) => `${role === 'owner' ? '--token <token>' : `--role-token ${role}=<token>`} or IVS_TOKEN_${role.toUpperCase().replace(/-/g, '_')}`

/** The roles a token given for a role may have in its team: a support user (assumed) acts as an owner. */
const ROLE_OF_TOKEN: Record<TokenRole, string[]> = {
  owner: ['owner', 'assumed'],
  member: ['member'],
  'read-only': ['read-only'],
  'assigned-only': ['assigned-only'],
  assumed: ['assumed'],
  'other-team': ['owner', 'assumed'],
  legacy: ['owner', 'assumed'],
}

/** The roles of the scenario's own team (other-team and legacy act in others). */
const SAME_TEAM: Role[] = ['owner', 'member', 'read-only', 'assigned-only', 'assumed']

/** The roles whose users a scenario names ({{users.member.id}}). */
const namedUsers = (text: string) => new Set([...text.matchAll(/\{\{\s*users\.([a-z-]+)\./g)].map((match) => match[1] as TokenRole))

/** The body as expectations and captures see it: a find's answer is its first page with `data` narrowed to what it found. */
interface View {
  status: number
  headers: Headers
  body: unknown
}

export class Runner {
  readonly contracts: AjvContracts
  readonly conformance: Conformance
  private readonly http: HttpClient
  private readonly base: string
  private readonly origin: string
  private readonly runId = randomBytes(3).toString('hex')
  private control = false
  /** Each scenario runs in teams of its own, made with the control API (on the mock, unless --read-only). */
  private ownTeams = false
  private profile: TargetProfile | undefined
  private readonly spares: SpareOrganisations
  private receiver: Receiver | undefined
  private receiverReachable = false

  constructor(private readonly options: RunOptions) {
    this.contracts = options.contracts ?? loadContracts()
    this.conformance = new Conformance(this.contracts)
    this.http = new HttpClient(options.timeoutMs ?? 30_000, options.readOnly === true)
    this.base = options.base.replace(/\/+$/, '')
    if (!/^https?:\/\/[^/]+.*\/api\/v2$/.test(this.base)) throw new RunUsageError(`the base URL must be the API's, ending in /api/v2 (got ${options.base})`)
    this.origin = this.base.slice(0, -'/api/v2'.length)
    this.spares = new SpareOrganisations(this.http, this.base, this.runId)
  }

  /** Runs the selected scenarios (and with readOnly the crawl); the report lists each with its steps, then every operation. */
  async run(): Promise<RunReport> {
    const began = performance.now()
    const startedAt = new Date().toISOString()
    const loaded =
      typeof this.options.scenarios[0] === 'string'
        ? loadScenarios(this.options.scenarios as string[], this.contracts, { samplesDir: this.options.samplesDir })
        : (this.options.scenarios as LoadedScenario[])
    const scenarios = this.select(loaded)
    await this.probe()
    const tokens = this.options.tokens ?? {}
    const crawling = this.options.readOnly === true && tokens.owner !== undefined
    const reports: ScenarioReport[] = new Array<ScenarioReport>(scenarios.length)
    this.options.onSelected?.(scenarios)
    if (scenarios.length > 0) await this.runAll(scenarios, reports)
    if (this.options.readOnly) {
      const crawled = crawling ? await crawl({ http: this.http, base: this.base, token: tokens.owner as string, contracts: this.contracts, conformance: this.conformance }) : crawlWithoutToken()
      reports.push(crawled)
      this.options.onScenarioEnd?.(crawled)
    }
    const count = (outcome: Outcome) => reports.filter((report) => report.outcome === outcome).length
    const { operations, reached, failed } = operationOutcomes(reports, this.contracts, { loaded, selected: scenarios, readOnly: this.options.readOnly === true, crawled: crawling })
    return {
      base: this.base,
      control: this.control,
      startedAt,
      durationMs: Math.round(performance.now() - began),
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      scenarios: reports,
      ...(this.profile && { target: describeProfile(this.profile, tokens) }),
      readOnly: this.options.readOnly === true,
      rateLimited: { ...this.http.waits },
      leftBehind: mergeLeftBehind(reports.flatMap((report) => report.leftBehind)),
      operations,
      reached,
      operationsFailed: failed,
    }
  }

  private async runAll(scenarios: LoadedScenario[], reports: ScenarioReport[]): Promise<void> {
    if (scenarios.some((scenario) => scenario.steps.some((step) => stepKind(step) === 'receive') || JSON.stringify(scenario).includes('{{receiver.url}}'))) {
      try {
        this.receiver = await Receiver.start(this.options.receiverPort)
      } catch (error) {
        throw new RunUsageError(`cannot start the webhook receiver on 127.0.0.1:${this.options.receiverPort ?? 0}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`)
      }
      this.receiverReachable = this.options.receiverUrl !== undefined || isLoopback(new URL(this.base))
    }
    let next = 0
    let bailed = false
    const worker = async () => {
      while (next < scenarios.length) {
        const index = next++
        const scenario = scenarios[index] as LoadedScenario
        this.options.onScenarioStart?.(scenario)
        const report = bailed ? this.skipped(scenario, '--bail: an earlier scenario failed', 'not-run') : await this.runScenario(scenario, index)
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

  /**
   * Whether the target answers at all (else TargetUnreachableError) and has the control API; without
   * it, what the tokens show of the team and its users (src/harness/target.ts).
   */
  private async probe(): Promise<void> {
    const status = await this.http.send('GET', `${this.base}/status`, { headers: {} })
    if (!status.answer) throw new TargetUnreachableError(`cannot reach ${this.base} (GET /status: ${status.error ?? 'no answer'})`)
    const clock = await this.http.send('GET', `${this.origin}/_mock/clock`, { headers: { Accept: 'application/json' } })
    this.control = clock.answer?.status === 200 && (clock.answer.body as { object?: unknown } | undefined)?.object === 'mock_clock'
    // --read-only makes no team (POST /_mock/teams writes): its scenarios act in the tokens' team, as on a deployment.
    this.ownTeams = this.control && this.options.readOnly !== true
    if (!this.ownTeams) this.profile = await learnTarget(this.http, this.base, this.options.tokens ?? {})
  }

  /**
   * Under --read-only, what a target took that a step sent expecting a refusal (safe: refused): the
   * run undoes nothing, so it is listed for a person to see to.
   */
  private takenWrites(scenario: LoadedScenario, report: ScenarioReport): LeftBehind[] {
    return report.steps.flatMap((step, index) => {
      const marked = scenario.steps[index] as { safe?: string } | undefined
      const taken = marked?.safe === 'refused' && step.status !== undefined && successful(step.status) && !READ_METHODS.has(step.method ?? 'GET')
      return taken ? [{ what: `${step.method ?? ''} ${step.url ?? ''}`, why: `answered ${step.status ?? ''} where step "${step.name}" expected a refusal (safe: refused); --read-only undoes nothing: see to it by hand` }] : []
    })
  }

  private skipped(scenario: LoadedScenario, reason: string, kind: SkipKind): ScenarioReport {
    return {
      name: scenario.name,
      file: scenario.file,
      description: scenario.description,
      tags: scenario.tags ?? [],
      outcome: 'skipped',
      skipReason: reason,
      skipKind: kind,
      failures: [],
      steps: scenario.steps.map((step) => ({ name: step.name, kind: stepKind(step), operationId: stepOperationId(step, this.conformance), outcome: 'skipped', failures: [], skipReason: reason, skipKind: kind, durationMs: 0 })),
      leftBehind: [],
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
    const report: ScenarioReport = { ...this.skipped(scenario, '', 'not-run'), outcome: 'passed', skipReason: undefined, skipKind: undefined, steps: [] }
    const key = `${index}-${scenario.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 40)}`
    // --read-only sends nothing that makes anything, so it takes nothing back (takenWrites says what a target took anyway).
    const residue = this.ownTeams || this.options.readOnly ? undefined : new ScenarioResidue(this.contracts, this.http, this.base, this.spares)
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
          report.steps.push({ name: step.name, kind: stepKind(step), operationId: stepOperationId(step, this.conformance), outcome: 'skipped', failures: [], skipReason: halt.reason, skipKind: halt.kind, durationMs: 0 })
          continue
        }
        const { stepReport, stop } = await this.runStep(step, variables, identity, key, residue, uncaptured)
        report.steps.push(stepReport)
        halt = stop
      }
      if (report.steps.some((step) => step.outcome === 'failed')) report.outcome = 'failed'
      else if (halt?.outcome === 'skipped') {
        report.outcome = 'skipped'
        report.skipReason = halt.reason
        report.skipKind = halt.kind
      }
    } catch (error) {
      if (error instanceof Halt) {
        const skippedReport = this.skipped(scenario, error.outcome === 'skipped' ? error.reason : 'not run: the scenario could not start', error.kind)
        report.outcome = error.outcome
        report.steps = skippedReport.steps
        if (error.outcome === 'skipped') Object.assign(report, { skipReason: error.reason, skipKind: error.kind })
        else report.failures.push(error.reason)
      } else {
        report.outcome = 'failed'
        report.failures.push(`the runner failed: ${(error as Error).message}`)
      }
    } finally {
      this.receiver?.forget(key)
      if (residue) report.leftBehind = this.options.keep ? residue.kept() : await residue.takeBack()
      if (this.options.readOnly) report.leftBehind = this.takenWrites(scenario, report)
      if (!this.options.keep) for (const team of identity?.teams ?? []) await this.http.send('DELETE', `${this.origin}/_mock/teams/${team}`, { headers: {} })
    }
    report.durationMs = Math.round(performance.now() - began)
    return report
  }

  /**
   * Tokens, team and users for a scenario: a fresh team on the mock; elsewhere the given tokens and
   * what the API told of the team (src/harness/target.ts), skipping the scenario, with the reason,
   * when it needs what the target cannot give.
   */
  private async identify(scenario: LoadedScenario): Promise<Identity> {
    const roles = this.rolesOf(scenario)
    const legacyTeam = scenario.team?.cases === false
    if (this.ownTeams) {
      const identity: Identity = { tokens: {}, users: {}, teams: [] }
      const main = await this.freshTeam(scenario.team ?? {}, identity)
      Object.assign(identity.tokens, main.tokens)
      identity.teamId = main.team.id
      for (const [role, user] of Object.entries(main.users)) identity.users[role as TokenRole] = { id: user.id, name: user.name }
      if (roles.has('other-team')) identity.tokens['other-team'] = (await this.freshTeam({}, identity)).tokens.owner
      if (roles.has('legacy')) identity.tokens.legacy = legacyTeam ? main.tokens.owner : (await this.freshTeam({ cases: false }, identity)).tokens.owner
      return identity
    }
    if (scenario.tags?.includes(FRESH_TEAM_TAG) && this.control) {
      throw new Halt('skipped', `judges counts or orders of a whole team (tag ${FRESH_TEAM_TAG}), so it needs a team of its own, which --read-only does not make (it writes nothing to /_mock)`, 'read-only')
    }
    if (scenario.tags?.includes(FRESH_TEAM_TAG)) {
      throw new Halt('skipped', `judges counts or orders of a whole team (tag ${FRESH_TEAM_TAG}), so it needs a team of its own, which only the mock's control API makes`, 'fresh-team')
    }
    const given = this.options.tokens ?? {}
    // A scenario that needs a team without cases runs as the legacy team's owner on a real target.
    const tokens: Partial<Record<TokenRole, string>> = legacyTeam ? { owner: given.legacy, legacy: given.legacy } : { ...given }
    for (const role of roles) {
      if (tokens[role]) continue
      const reason = legacyTeam
        ? `needs a team without cases: give its owner's token with ${tokenFlag('legacy')}${role === 'owner' || role === 'legacy' ? '' : `; the ${role} role has none there`}`
        : `needs a token for the ${role} role (${tokenFlag(role)})`
      throw new Halt('skipped', reason, 'token')
    }
    const profile = this.profile as TargetProfile
    for (const role of roles) {
      const actual = legacyTeam ? profile.tokenRoles.legacy : profile.tokenRoles[role]
      const expected = ROLE_OF_TOKEN[role]
      if (actual !== undefined && !expected.includes(actual ?? '')) {
        throw new Halt('skipped', `needs a token for the ${role} role, and the one given for it has the role ${actual ?? 'none (left the team)'} (GET /team/me): ${tokenFlag(role)}`, 'token')
      }
    }
    const identity: Identity = { tokens, users: legacyTeam ? {} : { ...profile.users }, teams: [] }
    if (legacyTeam && tokens.legacy) identity.users.owner = profile.users.legacy
    const text = JSON.stringify(scenario)
    for (const role of namedUsers(text)) {
      if (identity.users[role]) continue
      // Another team's user comes only from its token; a role of this team, from its members.
      if (!SAME_TEAM.includes(role)) throw new Halt('skipped', `needs a token for the ${role} role (${tokenFlag(role)}), whose user it names`, 'token')
      throw new Halt('skipped', `names the team's ${role} user ({{users.${role}...}}), and the team has no member with that role (GET /team/members)`, 'data')
    }
    if (text.includes('{{team.id')) {
      if (profile.team === undefined || legacyTeam) throw new Halt('skipped', `needs the team's id, and GET /team did not answer with it`, 'data')
      identity.teamId = profile.team.id
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
  private async runStep(
    step: Step,
    variables: Variables,
    identity: Identity,
    key: string,
    residue: ScenarioResidue | undefined,
    uncaptured: Map<string, string>,
  ): Promise<{ stepReport: StepReport; stop?: Halt }> {
    const began = performance.now()
    const kind = stepKind(step)
    const stepReport: StepReport = { name: step.name, kind, operationId: stepOperationId(step, this.conformance), outcome: 'passed', failures: [], durationMs: 0 }
    const finish = (stop?: Halt) => {
      stepReport.durationMs = Math.round(performance.now() - began)
      if (stepReport.failures.length > 0) {
        stepReport.outcome = 'failed'
        return { stepReport, stop: stop?.outcome === 'failed' ? stop : new Halt('failed', `not run: step "${step.name}" failed`) }
      }
      if (stop?.outcome === 'skipped' && stepReport.outcome !== 'skipped') Object.assign(stepReport, { outcome: 'skipped', skipReason: stop.reason, skipKind: stop.kind })
      return { stepReport, stop }
    }
    try {
      if (kind === 'control' && !this.control) {
        const reason = `needs the mock's control API (/_mock), which ${this.base} does not have`
        Object.assign(stepReport, { outcome: 'skipped', skipReason: reason, skipKind: 'control' })
        for (const name of Object.keys(step.capture ?? {})) uncaptured.set(name, step.name)
        return finish(this.options.wait ? undefined : new Halt('skipped', reason, 'control'))
      }
      if (kind === 'receive') {
        if (!this.receiverReachable || !this.receiver) {
          const reason = `needs the target to reach the runner's webhook receiver (a loopback target, or --receiver-url)`
          Object.assign(stepReport, { outcome: 'skipped', skipReason: reason, skipKind: 'receiver' })
          return finish(new Halt('skipped', reason, 'receiver'))
        }
        await this.receive(step as ReceiveStep, variables, key, stepReport)
        return finish()
      }
      return finish(await this.call(step as OperationStep | PathStep | ControlStep, variables, identity, stepReport, residue))
    } catch (error) {
      if (!(error instanceof VariableError)) throw error
      const skippedStep = uncaptured.get(error.variable.split('.')[0] ?? '')
      if (skippedStep === undefined) {
        stepReport.failures.push(error.message)
      } else {
        stepReport.failures = []
        Object.assign(stepReport, { outcome: 'skipped', skipReason: `needs {{${error.variable}}}, which the skipped step "${skippedStep}" captures`, skipKind: 'control' })
        for (const name of Object.keys(step.capture ?? {})) uncaptured.set(name, step.name)
      }
      return finish()
    }
  }

  /**
   * An operation, path or control step: the request, then the contract and the expectations,
   * retried while `poll` allows. Answers a Halt when a find found nothing and may skip.
   */
  private async call(step: OperationStep | PathStep | ControlStep, variables: Variables, identity: Identity, stepReport: StepReport, residue: ScenarioResidue | undefined): Promise<Halt | undefined> {
    const unsafe = this.options.readOnly ? notReadOnly(step, this.contracts) : undefined
    if (unsafe) {
      stepReport.failures.push(`scenario error: not sent: --read-only sends GET and HEAD and the writes a step marks safe (safe: refused or computes), nothing else to /_mock, and ${unsafe}`)
      return undefined
    }
    const control = 'control' in step
    const role: Role = control ? 'none' : ((step as OperationStep).as ?? 'owner')
    const token = role === 'none' ? undefined : identity.tokens[role]
    const params = interpolate((step as OperationStep).params ?? {}, variables) as Record<string, unknown>
    const declared = 'operation' in step ? this.contracts.operation(step.operation) : control ? this.contracts.operation(step.control) : undefined
    let method = declared?.method ?? (step as PathStep).method
    const template = declared?.path ?? (step as PathStep).path
    const missing: string[] = []
    let path = template.replace(/\{([A-Za-z_]+)\}/g, (_, name: string) => {
      if (params[name] === undefined || params[name] === null) missing.push(name)
      return encodeURIComponent(String(params[name]))
    })
    if (missing.length > 0 && !('url' in step && step.url !== undefined)) {
      stepReport.failures.push(`params.${missing.join(', params.')} missing for ${template}`)
      return undefined
    }
    let op = declared ?? this.conformance.match(method, path)?.op
    stepReport.operationId = op?.id
    const query = new URLSearchParams()
    for (const [name, value] of Object.entries((interpolate((step as OperationStep).query ?? {}, variables) as Record<string, unknown>) ?? {})) {
      query.append(name, Array.isArray(value) ? value.map(String).join(',') : String(value))
    }
    let json = step.body === undefined ? undefined : interpolate(step.body, variables)
    let expectations = interpolate(step.expect ?? {}, variables) as Expect
    // Where the API cannot delete what a create makes (an organisation), a spare an earlier run left is used instead.
    if (residue && op?.id === 'organisations.create' && [expectations.status ?? 201].flat().every((status) => successful(status))) {
      const spare = await this.spares.claim(token)
      if (spare !== undefined) {
        residue.reused(spare, token)
        op = this.contracts.operation('organisations.update')
        method = op.method
        path = `/organisations/${encodeURIComponent(String(spare))}`
        json = SpareOrganisations.reuseBody(json)
        expectations = { ...expectations, status: 200 }
        stepReport.operationId = op.id
        stepReport.note = `organisation ${String(spare)} reused: a spare an earlier run left (the API cannot delete organisations), made what the create asks for with PATCH`
      }
    }
    if (residue && op && !control) await residue.changing(op, token)
    let url = `${control ? `${this.origin}/_mock` : this.base}${path}${query.size > 0 ? `?${query.toString()}` : ''}`
    if ('url' in step && step.url !== undefined) {
      const given = String(interpolate(step.url, variables))
      const within = given.startsWith(`${this.base}/`) ? new URL(given).pathname.slice(new URL(this.base).pathname.length) : undefined
      if (within === undefined || this.conformance.match(method, within)?.op.id !== op?.id) {
        stepReport.failures.push(`url: ${given} is not ${op?.id ?? 'the operation'} under the target's API base ${this.base}`)
        return undefined
      }
      url = given
    }
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    let body: string | FormData | undefined
    let bodyExcerpt: string | undefined
    if (json !== undefined) {
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
    const find = 'find' in step ? step.find : undefined
    const poll: Poll | undefined = 'poll' in step && this.options.wait && !this.control ? step.poll : undefined
    const deadline = performance.now() + (poll?.timeout ?? 120) * 1000
    const keep429 = [expectations.status].flat().includes(429)
    for (let attempt = 1; ; attempt++) {
      stepReport.failures = []
      const exchange = await this.http.send(method, url, { headers, body, excerpt: bodyExcerpt, keep429, safe: 'safe' in step && step.safe !== undefined })
      Object.assign(stepReport, { method, url, request: exchange.requestExcerpt, status: exchange.answer?.status })
      let halt: Halt | undefined
      if (!exchange.answer) {
        stepReport.failures.push(`no answer: ${exchange.error ?? 'unknown error'}`)
      } else {
        const answer = exchange.answer
        stepReport.response = `${answer.status} ${answer.text.length > 500 ? `${answer.text.slice(0, 500)}…` : answer.text}`.trim()
        this.judgeContract(op, method, answer, stepReport)
        let view: View = answer
        if (find && successful(answer.status)) {
          const found = await this.find(find, url, answer, op, headers, variables, stepReport)
          view = found.view
          halt = found.halt
        }
        if (!halt) this.judgeExpectations(view, expectations, stepReport)
        if (stepReport.failures.length === 0 && !halt) {
          this.capture(step.capture, { status: view.status, body: view.body, header: (name) => view.headers.get(name) }, variables, stepReport)
          if (op && residue && answer.status === 201) residue.created(op, params, answer, token, SAME_TEAM.includes(role) ? identity.tokens.owner : undefined)
          if (op && residue && successful(answer.status)) residue.changed(op, json, token)
        }
      }
      if (halt || stepReport.failures.length === 0 || !poll || performance.now() + (poll.interval ?? 2) * 1000 > deadline) {
        if (poll && stepReport.failures.length > 0) stepReport.failures.push(`still so after polling ${attempt} times for ${poll.timeout ?? 120} s`)
        return halt
      }
      await new Promise((resolve) => setTimeout(resolve, (poll.interval ?? 2) * 1000))
    }
  }

  /**
   * Walks a list page by page while links.next names one, until `count` items match `where` (each
   * page judged by its contract); the view is the first page with `data` narrowed to the matches. Too few: a failure,
   * or with `missing` a skip of the rest of the scenario (the team holds no such data).
   */
  private async find(
    find: Find,
    url: string,
    first: Answer,
    op: OperationContract | undefined,
    headers: Record<string, string>,
    variables: Variables,
    stepReport: StepReport,
  ): Promise<{ view: View; halt?: Halt }> {
    const where = interpolate(find.where, variables) as Record<string, Matcher>
    const wanted = find.count ?? 1
    const maxPages = find.pages ?? 50
    const matches = (item: unknown) => Object.entries(where).every(([path, matcher]) => mismatch(valueAt(item, path), matcher) === undefined)
    const found: unknown[] = []
    let page: Answer = first
    let pages = 1
    for (;;) {
      const list = page.body as { data?: unknown; links?: { next?: unknown } | null } | undefined
      if (!Array.isArray(list?.data)) break
      found.push(...list.data.filter(matches))
      // The next page is the step's own URL with page changed (what links.next names, but at the
      // address the runner reaches the API by, whatever host the deployment writes into its links).
      if (found.length >= wanted || pages >= maxPages || typeof list.links?.next !== 'string') break
      const next = new URL(url)
      next.searchParams.set('page', String(Number(next.searchParams.get('page') ?? 1) + 1))
      url = next.toString()
      const exchange = await this.http.send('GET', url, { headers })
      pages++
      if (!exchange.answer) {
        stepReport.failures.push(`page ${pages} (${url}): no answer: ${exchange.error ?? 'unknown error'}`)
        break
      }
      page = exchange.answer
      const before = stepReport.failures.length
      this.judgeContract(op, 'GET', page, stepReport)
      stepReport.failures.splice(before, Infinity, ...stepReport.failures.slice(before).map((failure) => `page ${pages}: ${failure}`))
      if (!successful(page.status)) {
        stepReport.failures.push(`page ${pages} (${url}): status ${page.status}`)
        break
      }
    }
    stepReport.note = `found ${found.length} of ${wanted} ${wanted === 1 ? 'item' : 'items'} matching ${excerpt(where)} in ${pages} ${pages === 1 ? 'page' : 'pages'}`
    const view: View = { status: first.status, headers: first.headers, body: { ...(first.body as object), data: found } }
    if (found.length >= wanted) return { view }
    if (find.missing !== undefined) return { view, halt: new Halt('skipped', `no data in the team: ${find.missing}`, 'data') }
    stepReport.failures.push(`find: ${stepReport.note}, looked for ${wanted}`)
    return { view }
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

  /** The contract's judgement of an answer. */
  private judgeContract(op: OperationContract | undefined, method: string, answer: Answer, stepReport: StepReport): void {
    const response = { status: answer.status, headers: answer.headers, body: answer.body, text: answer.text }
    const violations = op ? this.conformance.checkResponse(op, response) : ['HEAD', 'OPTIONS'].includes(method) ? [] : this.conformance.checkUnknownRoute(response)
    for (const violation of violations) stepReport.failures.push(`contract${op ? ` of ${op.id}` : ''}: ${violation.at}: ${violation.message}`)
  }

  /** The scenario's own expectations of an answer (or of a find's narrowed view of it). */
  private judgeExpectations(view: View, expectations: Expect, stepReport: StepReport): void {
    const statuses = expectations.status === undefined ? undefined : Array.isArray(expectations.status) ? expectations.status : [expectations.status]
    if (statuses ? !statuses.includes(view.status) : !successful(view.status)) {
      stepReport.failures.push(`status: expected ${statuses ? statuses.join(' or ') : 'a 2xx'}, got ${view.status}`)
    }
    this.expectHeaders(expectations.headers, (name) => view.headers.get(name), stepReport)
    this.expectBody(expectations.body, view.body, stepReport)
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
