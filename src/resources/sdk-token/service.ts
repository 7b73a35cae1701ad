// POST /sdk_token: a JWT scoped to one record, valid for 60 minutes of the mock's clock
// (docs/specification-notes.md "Downloads and SDK tokens"), signed with the world's key (key.ts).
import { canSee, type RequestContext } from '../../context.ts'
import { invalid } from '../../kernel/errors.ts'
import type { RecordRow } from '../records/index.ts'
import { SDK_TOKEN_ALG, SDK_TOKEN_AUDIENCE, SDK_TOKEN_ISSUER, SDK_TOKEN_LIFETIME_SECONDS, sdkTokenKey } from './key.ts'

/** The claims besides iss, aud, iat and exp. */
export interface SdkTokenClaims {
  /** The record's id, as a string (JWT subjects are strings). */
  sub: string
  record_id: number
  client_id: number
  team_id: number
  /** The user who asked for the token. */
  user_id: number
}

/** A record of the team the caller may see; otherwise a 422 keyed record_id (the mock's choice). */
function tokenRecord(ctx: RequestContext, id: number): RecordRow {
  const record = ctx.team.records.get(id)
  if (!record || !canSee(ctx, record)) throw invalid({ record_id: ['The selected record id is invalid.'] })
  return record
}

export async function createSdkToken(ctx: RequestContext, recordId: number): Promise<string> {
  // jose loads with the first token signed, not at start-up.
  const { SignJWT } = await import('jose')
  const record = tokenRecord(ctx, recordId)
  const key = sdkTokenKey(ctx.store)
  const issuedAt = Math.floor(ctx.clock.nowMs() / 1000)
  const claims: SdkTokenClaims = { sub: String(record.id), record_id: record.id, client_id: record.client, team_id: ctx.team.id, user_id: ctx.user.id }
  return new SignJWT({ ...claims })
    .setProtectedHeader({ alg: SDK_TOKEN_ALG, typ: 'JWT', kid: key.kid })
    .setIssuer(SDK_TOKEN_ISSUER)
    .setAudience(SDK_TOKEN_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + SDK_TOKEN_LIFETIME_SECONDS)
    .sign(key.secret)
}
