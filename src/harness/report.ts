// What a run reports, as data: each scenario with its steps, each API operation with its outcome,
// what the run left on the target, and with --baseline how the operations moved since an earlier run
// (drift.ts). The runner makes it; the console, JUnit and JSON reports and the coverage table read it.
import type { RateLimitWaits } from './http.ts'
import type { LeftBehind } from './residue.ts'

export type Outcome = 'passed' | 'failed' | 'skipped'

/**
 * Why a step did not run, in kinds the coverage table names: the control API is missing, a role has
 * no token, the team holds no such data, the scenario needs a team of its own (tag fresh-team), it
 * needs what --read-only does not do (make a team), the target cannot reach the webhook receiver,
 * or an earlier step (or scenario, with --bail) failed.
 */
export type SkipKind = 'control' | 'token' | 'data' | 'fresh-team' | 'read-only' | 'receiver' | 'not-run'

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
  skipKind?: SkipKind
  /** What the runner did beyond the step's own request: a spare organisation reused, the pages a find walked. */
  note?: string
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
  skipKind?: SkipKind
  /** Failures outside the steps (a fresh team that could not be made). */
  failures: string[]
  steps: StepReport[]
  /** On a target without the control API: what the scenario left there, and why (with --read-only, what a target took that a step expected refused). */
  leftBehind: LeftBehind[]
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
  /** On a target without the control API: the team and the users the tokens act as (learnt from the API). */
  target?: string
  readOnly: boolean
  /** The requests the run sent, and how often and how long it waited out the target's rate limit. */
  rateLimited: RateLimitWaits
  /** What the run left on the target (nothing on the mock, whose fresh teams are dropped), and why. */
  leftBehind: LeftBehind[]
  /** Every API operation: passed, failed, or not reached and why. */
  operations: OperationOutcome[]
  /** Operations reached (an answer judged), and of those, failed. */
  reached: number
  operationsFailed: number
  /** With --baseline: how the operations moved since an earlier run (first in every report). */
  drift?: Drift
}

/** An API operation in a run: passed, failed, or not reached and why. */
export interface OperationOutcome {
  operationId: string
  method: string
  path: string
  outcome: 'passed' | 'failed' | 'not reached'
  /** Steps that got an answer from it, and of those a 2xx (the rest were refusals: 4xx the scenario asked for). */
  answered: number
  succeeded: number
  /** Why it was not reached. */
  reason?: string
  /** A failed operation's violations, each once, as identities that hold from run to run (drift.ts): what --baseline compares. */
  violations?: string[]
}

/** How an operation's verdict moved since the baseline. */
export type DriftKind = 'newly failing' | 'newly unreachable' | 'new violations' | 'recovered' | 'newly reached'

export interface OperationDrift {
  operationId: string
  method: string
  path: string
  kind: DriftKind
  /** The baseline's verdict and this run's. */
  was: OperationOutcome['outcome']
  now: OperationOutcome['outcome']
  /** Why it is not reached now (newly unreachable). */
  reason?: string
  /** This run's violations the baseline did not have (newly failing, new violations). */
  newViolations: string[]
}

export interface Drift {
  baseline: { file: string; base?: string; startedAt?: string }
  /** Whether anything got worse: an operation newly failing or newly unreachable. */
  worse: boolean
  /** Every change, the worse first (newly failing, newly unreachable, new violations, then recovered and newly reached). */
  operations: OperationDrift[]
}
