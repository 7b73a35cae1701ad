// `ivs-mock pact check`: every interaction of a pact judged against contracts/, with no provider
// running. The request must be one its operation accepts; the response's status one the operation
// documents, and what the response lists (headers, body, body properties) must fit its schema.
import { SURFACES } from '../../contracts/load.ts'
import type { Conformance, OperationMatch, Violation } from '../conformance.ts'
import type { PactFile, PactInteraction } from './pact-file.ts'

export interface PactFinding extends Violation {
  file: string
  interaction: string
}

/**
 * The operation an interaction's path reaches. A path may be the service's (`/api/v2/clients/1`,
 * `/_mock/clock`) or relative to the API base (`/clients/1`), as a consumer whose base URL ends in
 * /api/v2 records it; a path on no surface is tried relative to the API base.
 */
export function matchInteraction(conformance: Conformance, method: string, path: string): OperationMatch | undefined {
  return conformance.matchFullPath(method, path) ?? conformance.match(method, path, 'api')
}

/** What the service answers a request its operation does not accept: 422 for its fields, 400 for a body that is not JSON. */
const REFUSALS = new Set([400, 422])

/**
 * The request must be one its operation accepts, unless the interaction expects the answer to a
 * request that is not (400, 422): a consumer showing how it handles an invalid field sends one.
 */
export function checkInteraction(conformance: Conformance, interaction: PactInteraction): Violation[] {
  const { request, response } = interaction
  const match = matchInteraction(conformance, request.method, request.path)
  if (!match) return [{ at: 'request', message: `no operation answers ${request.method} ${request.path}` }]
  const requestViolations: Violation[] = REFUSALS.has(response.status)
    ? []
    : conformance.checkRequest(match.op, {
        query: request.query,
        body: request.body,
        contentType: request.headers['content-type'] ?? (request.body === undefined ? null : 'application/json'),
      })
  const responseViolations = conformance.checkResponse(match.op, { status: response.status, headers: response.headers, body: response.body, text: response.text }, { partial: true })
  // The API takes a bearer token on every operation; only an interaction about its absence (401) goes without.
  const authorization = request.headers.authorization ?? ''
  if (SURFACES[match.op.surface].authenticated && response.status !== 401 && !/^Bearer \S+/i.test(authorization)) {
    requestViolations.push({ at: 'request header Authorization', message: `${match.op.id} takes a bearer token (Authorization: Bearer <token>), got ${authorization || 'none'}` })
  }
  return [
    ...requestViolations.map((violation) => ({ ...violation, at: violation.at.startsWith('request') ? violation.at : `request ${violation.at}` })),
    ...responseViolations.map((violation) => ({ ...violation, at: `response ${violation.at}` })),
  ]
}

export function checkPact(conformance: Conformance, pact: PactFile): PactFinding[] {
  return pact.interactions.flatMap((interaction) =>
    checkInteraction(conformance, interaction).map((violation) => ({ file: pact.path, interaction: interaction.description, ...violation })),
  )
}

/** One line per finding: file, interaction, where, why. */
export function formatFinding(finding: PactFinding): string {
  return `${finding.file}: "${finding.interaction}": ${finding.at}: ${finding.message}`
}
