// Generated from contracts/scenario.schema.json by src/build/types.ts (npm run build). Do not edit: change the schema.
/* eslint-disable */

/**
 * One of four kinds: an API operation by operationId (operation), an API call by method and contract path (method + path), a control step on the mock's /_mock API (control), or waiting for a webhook delivery at the runner's receiver (receive).
 */
export type Step = (OperationStep | PathStep | ControlStep | ReceiveStep)
/**
 * What the step does or shows; unique within the scenario.
 */
export type StepName = string
/**
 * Whose token the request carries: a role of the scenario's team, other-team (the owner of a second, unrelated team), legacy (the owner of a team without cases) or none (no Authorization header).
 */
export type Role = ("owner" | "member" | "read-only" | "assigned-only" | "assumed" | "other-team" | "legacy" | "none")
/**
 * A string, number, boolean or null is compared for equality (so is an array); an object lists matcher keywords, all of which must hold. To compare with an object, use equals or subset.
 */
export type Matcher = (Scalar | unknown[] | MatcherObject)
export type Scalar = (string | number | number | boolean | null)
export type JsonType = ("string" | "number" | "integer" | "boolean" | "object" | "array" | "null")

/**
 * One scenario of `ivs-mock verify`: a named sequence of HTTP steps against the API (and, on the mock, its control API), each checked against the contracts and against the scenario's own expectations. One scenario per file in scenarios/ (YAML or JSON). Strings may use {{variables}}: a string that is exactly one {{name}} keeps the variable's type; built-ins are run.id, team.id, users.<role>.id, users.<role>.name, receiver.url and base.
 */
export interface Scenario {
/**
 * Where this file's schema is (for editors that read it from the file).
 */
$schema?: string
/**
 * What the scenario shows, as a sentence; unique across all scenario files. Reports and --grep use it.
 */
name: string
/**
 * The spec rule or FACTS line the scenario proves, in plain words.
 */
description: string
/**
 * Labels for --tag (lower case: clients, rules, webhooks...).
 */
tags?: string[]
/**
 * false when the scenario changes nothing on the target (only reads); --read-only runs only those.
 */
mutates?: boolean
team?: FreshTeamPOSTMockTeams
/**
 * Initial variables, by name; values may use {{variables}} (earlier ones and built-ins).
 */
vars?: {

}
/**
 * Run in order; the first failing step fails the scenario and the rest are not run.
 * 
 * @minItems 1
 */
steps: [Step, ...(Step)[]]
}
/**
 * What the scenario's fresh team needs; on the mock it is the body of POST /_mock/teams. cases: false makes the scenario's team a legacy team (without cases): on a real target it then runs with the legacy token. generate is ignored on real targets.
 */
export interface FreshTeamPOSTMockTeams {
/**
 * Default: a generated company name with the team id.
 */
name?: string
/**
 * false makes a legacy team: every /cases operation answers 403.
 */
cases?: boolean
/**
 * true turns on the custom declaration feature: records may then be created with is_declaration_required.
 */
declaration?: boolean
/**
 * Seeded, realistic data to add, as in the seeded world: extra members (role member), clients, organisations, credit history entries, records and cases.
 */
generate?: {
members?: number
clients?: number
organisations?: number
credit_entries?: number
/**
 * Records in every status (pending to reviewed), paid from the team's credits, with the team's record templates.
 */
records?: number
/**
 * Cases in every status (pending rarely: deprecated), some archived, each holding some of one client's records (so generate records too), with assignees and the case reviews that led to their status. Ignored when cases is false.
 */
cases?: number
}
}
export interface OperationStep {
name: StepName
/**
 * An API operationId from contracts/operations (clients.create, records.steps.list...).
 */
operation: string
as?: Role
params?: Params
query?: Query
/**
 * The JSON request body (any JSON value; sent with Content-Type: application/json).
 */
body?: ({

} | unknown[] | string | number | boolean | null)
/**
 * A body sent as-is (set Content-Type in headers); instead of body.
 */
rawBody?: string
upload?: Upload
headers?: StringMap1
expect?: Expect
capture?: Capture
poll?: Poll
}
/**
 * Path parameters by name ({id} -> id), URL-encoded by the runner.
 */
export interface Params {
[k: string]: string | number
}
/**
 * Query parameters; an array is sent as a comma-separated value (expand=client,case), as the API takes it.
 */
export interface Query {
[k: string]: string | number | boolean | (string | number | number | boolean)[]
}
/**
 * A multipart/form-data body with one file from fixtures/samples (and text fields).
 */
export interface Upload {
/**
 * The multipart field the file goes in (attachment, file...).
 */
field: string
/**
 * A file of fixtures/samples (passport.jpg, bank-statement.pdf...).
 */
sample: string
/**
 * The file name sent (default: the sample's name).
 */
name?: string
/**
 * The part's Content-Type (default: from the sample's extension).
 */
type?: string
fields?: StringMap
}
/**
 * Further text fields of the form.
 */
export interface StringMap {
[k: string]: string | number | boolean
}
/**
 * Further request headers (Content-Type, Accept...).
 */
export interface StringMap1 {
[k: string]: string | number | boolean
}
/**
 * What the answer must show beyond its contract (the contract is always checked).
 */
export interface Expect {
/**
 * The status, or the statuses any of which will do. Without it any 2xx passes (the operation must document it, as always).
 */
status?: (number | [number, ...(number)[]])
headers?: HeaderExpectations
body?: BodyExpectations
}
/**
 * Answer headers by name (case-insensitive); each value is a matcher on the header's text (absent: true when it must not be sent).
 */
export interface HeaderExpectations {
[k: string]: Matcher
}
export interface MatcherObject {
/**
 * Deep equality with this value (any JSON).
 */
equals?: ({

} | unknown[] | string | number | boolean | null)
/**
 * Objects: every listed key holds the listed value (recursively, other keys allowed); arrays: by position, the same length or longer; scalars: equality.
 */
subset?: ({

} | unknown[] | string | number | boolean | null)
/**
 * The value is an array with at least one item that matches this value as a subset.
 */
contains?: ({

} | unknown[] | string | number | boolean | null)
/**
 * The value equals one of these.
 * 
 * @minItems 1
 */
oneOf?: [unknown, ...(unknown)[]]
/**
 * The JSON type (or one of the types) of the value.
 */
type?: (JsonType | [JsonType, ...(JsonType)[]])
/**
 * A regular expression (JavaScript syntax) the value, a string, must match.
 */
pattern?: string
/**
 * The length of an array or string (or the number of keys of an object): exactly n, or between min and max.
 */
length?: (number | {
min?: number
max?: number
})
/**
 * A number greater than or equal to this.
 */
gte?: number
/**
 * A number less than or equal to this.
 */
lte?: number
/**
 * true: the path does not exist (a null value exists); false: it does.
 */
absent?: boolean
/**
 * Passes when this matcher fails.
 */
not?: (Scalar | unknown[] | MatcherObject)
}
/**
 * Keys are dot paths into the JSON body (data.0.id, name.first_name; $ is the whole body); each value is a matcher.
 */
export interface BodyExpectations {
[k: string]: Matcher
}
/**
 * Variables taken from the answer: status, body (the whole JSON body), body.<dot path> (data.0.id) or header.<name>.
 */
export interface Capture {
[k: string]: string
}
/**
 * On a real target run with --wait: the step is retried until its expectations hold or timeout passes (for state a control step would have made on the mock). On the mock it runs once.
 */
export interface Poll {
/**
 * Seconds of real time to keep trying.
 */
timeout?: number
/**
 * Seconds between tries.
 */
interval?: number
}
export interface PathStep {
name: StepName
/**
 * The HTTP method.
 */
method: ("GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS")
/**
 * Relative to the API base (/clients/{id}); path parameters in braces come from params. A path no operation has is checked as an unknown route (404 {"error": ...}).
 */
path: string
as?: Role
params?: Params
query?: Query
/**
 * The JSON request body (any JSON value; sent with Content-Type: application/json).
 */
body?: ({

} | unknown[] | string | number | boolean | null)
/**
 * A body sent as-is (set Content-Type in headers); instead of body.
 */
rawBody?: string
upload?: Upload
headers?: StringMap2
expect?: Expect
capture?: Capture
poll?: Poll
}
/**
 * Further request headers (Content-Type, Accept...).
 */
export interface StringMap2 {
[k: string]: string | number | boolean
}
export interface ControlStep {
name: StepName
/**
 * A control operationId from contracts/control (control.records.complete, control.clock.advance...). Needs the mock: on a target without /_mock this step and the rest of the scenario are skipped (with --wait only this step is).
 */
control: string
params?: Params
query?: Query
/**
 * The JSON request body.
 */
body?: ({

} | unknown[] | string | number | boolean | null)
expect?: Expect
capture?: Capture
}
export interface ReceiveStep {
name: StepName
/**
 * Waits for a webhook delivery to {{receiver.url}} (the runner's receiver for this scenario) and checks it against the event's contract.
 */
receive: {
/**
 * The event name the delivery carries (record.created...); earlier deliveries of other events are kept for later receive steps.
 */
event: string
/**
 * Seconds of real time to wait for it.
 */
within?: number
/**
 * The webhook's signing secret: X-SVC-Signature must be the base64 HMAC-SHA256 of the raw body with it.
 */
secret?: string
}
/**
 * What the delivery must show beyond its contract.
 */
expect?: {
headers?: HeaderExpectations
body?: BodyExpectations
}
capture?: Capture
}
