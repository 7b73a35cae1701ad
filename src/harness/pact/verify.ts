// `ivs-mock pact verify`: consumer pacts replayed against a running mock by Pact's own verifier,
// with each interaction's provider states set up in a fresh team through the control API.
// @pact-foundation/pact (and its native core) is loaded here only, when a verification runs.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { readPactFile, type PactFile } from './pact-file.ts'
import { InteractionSetup, setUpState, stateProblem } from './states.ts'

/** The Pact library is not installed (the Docker image ships none; nor does a production-only install without it). */
export class PactNotInstalledError extends Error {}

export interface VerifyOptions {
  /** The pact files to verify. */
  files: string[]
  /** The mock's origin, e.g. http://127.0.0.1:4010 (an /api/v2 at its end is left out). */
  origin: string
}

export interface VerifyResult {
  ok: boolean
  /** Why it failed, one line each: unknown states, state set-ups that broke, Pact's own failure. */
  problems: string[]
}

/** Paths the Pact proxy answers itself (provider state set-up, messages); never sent to the mock. */
const PACT_PROXY_PATHS = new Set(['/_pactSetup', '/_messages'])

/** A consumer's path relative to the API base (`/clients/1`) is sent under /api/v2; `/api/v2/...` and `/_mock/...` as they are. */
export function servicePath(url: string): string {
  return /^\/(api\/v2|_mock)(\/|\?|$)/.test(url) ? url : `/api/v2${url}`
}

/** Every provider state the pacts name that ivs-mock cannot set up, with the interaction naming it. */
export function stateProblems(pacts: PactFile[]): string[] {
  return pacts.flatMap((pact) =>
    pact.interactions.flatMap((interaction) =>
      interaction.providerStates.flatMap((state) => {
        const problem = stateProblem(state.name, state.params)
        return problem ? [`${pact.path}: "${interaction.description}": ${problem}`] : []
      }),
    ),
  )
}

interface VerifierReport {
  errors?: { interaction?: string; mismatch?: { message?: string; mismatches?: { path?: string; mismatch?: string; type?: string }[] } }[]
}

/** Pact's failure as one line per mismatch: the interaction, where, why. Its error message is a JSON report when the verification ran. */
export function verifierFailures(error: unknown): string[] {
  const message = error instanceof Error ? error.message : String(error)
  let report: VerifierReport
  try {
    report = JSON.parse(message) as VerifierReport
  } catch {
    return [message]
  }
  const lines = (report.errors ?? []).flatMap(({ interaction = '?', mismatch }) => {
    const mismatches = mismatch?.mismatches ?? []
    if (mismatches.length === 0) return [`${interaction}: ${mismatch?.message ?? 'failed'}`]
    return mismatches.map((each) => `${interaction}: ${each.path ?? each.type ?? ''}: ${each.mismatch ?? ''}`)
  })
  return lines.length > 0 ? lines : [message]
}

type VerifierClass = typeof import('@pact-foundation/pact').Verifier

async function loadVerifier(): Promise<VerifierClass> {
  try {
    const pact = await import('@pact-foundation/pact')
    return pact.Verifier
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND') {
      throw new PactNotInstalledError('@pact-foundation/pact is not installed; run npm install @pact-foundation/pact (pact check needs no library)')
    }
    throw error
  }
}

export async function verifyPacts(options: VerifyOptions): Promise<VerifyResult> {
  const origin = options.origin.replace(/\/+$/, '').replace(/\/api\/v2$/, '')
  const pacts = options.files.map(readPactFile)
  const unknown = stateProblems(pacts)
  if (unknown.length > 0) return { ok: false, problems: unknown }
  const Verifier = await loadVerifier()

  // The verifier runs one interaction at a time: set-up of each of its states (an interaction with
  // none gets the state ''), the request, then teardown. Its team lives from its first set-up on;
  // the beforeEach hook (called at an interaction's first set-up) starts the next one afresh.
  let current: InteractionSetup | undefined
  const setupFailures: string[] = []
  const interaction = () => (current ??= new InteractionSetup(origin))
  const setUp = async (name: string, params: unknown) => {
    try {
      return await setUpState(interaction(), name, (params ?? {}) as Record<string, unknown>)
    } catch (error) {
      setupFailures.push(`provider state "${name}": ${error instanceof Error ? error.message : String(error)}`)
      throw error
    }
  }
  const stateNames = new Set(['', ...pacts.flatMap((pact) => pact.interactions.flatMap((each) => each.providerStates.map((state) => state.name)))])
  const stateHandlers = Object.fromEntries([...stateNames].map((name) => [name, (params?: unknown) => setUp(name, params)]))

  const requestFilter = (request: IncomingMessage & { url: string }, _response: ServerResponse, next: () => void) => {
    if (PACT_PROXY_PATHS.has(request.url.split('?')[0] ?? '')) return next()
    request.url = servicePath(request.url)
    const setup = interaction()
    if (request.url.startsWith('/api/v2') && setup.caller !== 'recorded') {
      const token = setup.token
      if (token) request.headers.authorization = `Bearer ${token}`
      else delete request.headers.authorization
    }
    next()
  }

  try {
    // Pact's native core prints its own report (each interaction, each mismatch) on stdout.
    await new Verifier({
      provider: 'ivs-mock',
      providerBaseUrl: origin,
      pactUrls: options.files,
      stateHandlers,
      beforeEach: () => {
        current = undefined
        return Promise.resolve()
      },
      requestFilter,
      logLevel: 'warn',
    }).verifyProvider()
  } catch (error) {
    return { ok: false, problems: [...setupFailures, ...verifierFailures(error)] }
  }
  return { ok: setupFailures.length === 0, problems: setupFailures }
}
