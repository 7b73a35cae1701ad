// The response a check returns (GET /checks/{id}?expand=response). docs/specification-notes.md "Checks and responses":
// only photo ID has a response body in the API; for every other check type the real service
// exposes no result, and its expanded response is exactly {"object": "check_response.other"}. A
// client learns such a check's outcome from the check's status and the record's status.
//
// When the result comes back the lifecycle engine keeps what the response is made from in
// check.response (a CheckResponseRecipe: when, a seed, the date of birth, a photo ID's images), and
// responseOf() makes it each time it is read.
//
// Outcome -> check status (the engine) -> photo ID response result (records/check-results.ts):
//   clear    -> accepted -> clear
//   consider -> accepted -> consider
//   refer    -> refer    -> consider (the document needs a look, as for consider; the check's
//                                     status is what says refer)
//   rejected -> rejected -> rejected
//   failed   -> failed   -> no response (null)
//   paused   -> paused   -> no response (null)
import type { CheckResponseOtherJson, CheckResponsePhotoIdJson } from '../../contracts/generated.ts'
import { toDate } from '../../kernel/clock.ts'
import { deepFreeze } from '../../kernel/frozen.ts'
import { createRandom } from '../../kernel/random.ts'
import { hasResponse, photoIdResult } from './check-results.ts'
import { type CheckRow } from './rows.ts'
import type { Team } from '../../store/world.ts'
import { photoIdResponse, withCapture } from './photo-id.ts'
import type { CheckResponseInput } from './response-input.ts'
import { onTheWire } from '../../kernel/frozen.ts'

export type { CheckResponseInput } from './response-input.ts'

export type CheckResponse = CheckResponsePhotoIdJson | CheckResponseOtherJson

/** What every check type but photo ID answers once it has a response (shared: it never changes). */
const OTHER_RESPONSE: CheckResponseOtherJson = deepFreeze({ object: 'check_response.other' })

const DAY = 86_400_000

/** A stable 32-bit hash (FNV-1a). */
function hash(text: string): number {
  let value = 0x811c9dc5
  for (let i = 0; i < text.length; i++) value = Math.imul(value ^ text.charCodeAt(i), 0x01000193) >>> 0
  return value
}

/** The client's date of birth, or one derived from who they are (so every check of theirs agrees). */
export function dateOfBirth(input: Pick<CheckResponseInput, 'dob' | 'name' | 'email' | 'now'>): string {
  if (input.dob !== null) return input.dob
  const days = 22 * 365 + (hash(`${input.name.first_name} ${input.name.last_name} ${input.email}`) % (42 * 365))
  return toDate(new Date(input.now.getTime() - days * DAY))
}

/**
 * A photo ID check's response (see the table at the top of this file): null for failed and paused
 * checks, otherwise check_response.photo_id, valid against contracts/schemas/check-response-photo-id.json.
 */
export function checkResponse(input: CheckResponseInput): CheckResponsePhotoIdJson | null {
  if (!hasResponse(input.outcome)) return null
  return photoIdResponse(input, dateOfBirth(input), photoIdResult(input.outcome))
}

/**
 * A check's response, null while it has none. A photo ID's is made from its recipe as it was when
 * the result came back: the record's name and email, the step's preferences with what the client
 * showed, the recipe's moment, date of birth and seed. Every other type's is check_response.other.
 */
export function responseOf(team: Team, check: CheckRow): CheckResponse | null {
  const recipe = check.response
  const record = team.records.get(check.record)
  if (recipe === null || check.outcome === null || !record) return null
  if (check.type !== 'photo_id') return hasResponse(check.outcome) ? OTHER_RESPONSE : null
  const step = record.steps.find((row) => row.id === check.step)
  const response = checkResponse({
    outcome: check.outcome,
    preferences: withCapture(step?.preferences ?? {}, check.capture),
    name: record.name,
    email: record.email,
    dob: recipe.dob,
    random: createRandom(recipe.seed),
    now: new Date(recipe.at),
  })
  if (response !== null && recipe.media) response.media = onTheWire<CheckResponsePhotoIdJson['media']>(recipe.media)
  return response
}
