// Typed configuration from flags and environment variables, with defaults and --help.
// Bad input exits with code 2 and a one-line reason (see main.ts).
import { Command, InvalidArgumentError, Option } from 'commander'
import { describeStates, ROLE_PARAM } from './harness/pact/states.ts'
import { TOKEN_ROLES } from './harness/roles.ts'
import type { Latency } from './kernel/faults.ts'
import { DEFAULT_MAX_BODY_BYTES } from './kernel/body.ts'
import { DEFAULT_JOURNAL_SIZE } from './kernel/journal.ts'
import { DEFAULT_SCAN_DELAY_SECONDS } from './lifecycle/schedule.ts'

export interface ServeConfig {
  port: number
  host: string
  seed: number | undefined
  data: string | undefined
  recordExpiryDays: number
  checkDelay: number
  scanDelay: number
  rateLimit: number
  rateLimitWindow: number
  clock: Date | undefined
  /** The clock stands still from the start (it moves only when advanced). */
  freezeClock: boolean
  cors: boolean
  journalSize: number
  latency: Latency | undefined
  maxBody: number
  /** Origins browsers may call /api/v2 from ('*': any). */
  corsOrigins: string[]
  /** Origins browsers may call /_mock and /oauth from (none by default). */
  mockCorsOrigins: string[]
  /** Host names the mock answers to beside the loopback ones ('*': any). */
  allowedHosts: string[]
  /** Serve the control API (/_mock); off, the mock is presented as a real deployment is. */
  control: boolean
}

export const DEFAULT_PORT = 4010

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const trimmed = value.trim()
    const parsed = Number(trimmed)
    if (!/^-?\d+$/.test(trimmed) || !Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}.`)
    }
    return parsed
  }
}

function timestamp(value: string): Date {
  const parsed = new Date(value)
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/.test(value) || Number.isNaN(parsed.getTime())) {
    throw new InvalidArgumentError('expected an ISO 8601 date or date-time, e.g. 2026-06-01 or 2026-06-01T09:00:00Z.')
  }
  return parsed
}

/** The longest --latency: ten minutes, well past any client's timeout. */
const MAX_LATENCY_MS = 600_000

/** --latency: '250' or '100-500' (milliseconds). */
function latencyRange(value: string): Latency {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(value)
  const [minMs, maxMs] = [Number(match?.[1]), Number(match?.[2] ?? match?.[1])]
  if (!match || minMs > MAX_LATENCY_MS || maxMs > MAX_LATENCY_MS || minMs > maxMs) {
    throw new InvalidArgumentError(`expected milliseconds from 0 to ${MAX_LATENCY_MS}, or a range min-max with min <= max, e.g. 250 or 100-500.`)
  }
  return { minMs, maxMs }
}

function nonEmpty(name: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${name} must not be empty.`)
    return value
  }
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 }

/** A size in bytes, or with a unit: 1048576, 512kb, 1mb, 10MiB (kilo and mega count 1024). */
function size(name: string, min: number, max: number) {
  return (value: string): number => {
    const match = /^(\d+)\s*([a-z]*)$/i.exec(value.trim())
    const unit = SIZE_UNITS[match?.[2]?.toLowerCase() ?? 'none']
    const bytes = match && unit !== undefined ? Number(match[1]) * unit : Number.NaN
    if (!Number.isSafeInteger(bytes) || bytes < min || bytes > max) {
      throw new InvalidArgumentError(`${name} must be a number of bytes from ${min} to ${max}, or a size such as 512kb, 1mb or 10mb.`)
    }
    return bytes
  }
}

/** A list option: repeatable, and each value may hold several items separated by commas or spaces. */
function list(check: (item: string) => string) {
  return (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), ...value.split(/[\s,]+/).filter(Boolean).map(check)]
}

function origin(value: string): string {
  if (value === '*' || /^https?:\/\/[^/\s?#]+$/i.test(value)) return value
  throw new InvalidArgumentError(`expected origins such as http://localhost:5173 (scheme, host and port; no path), or *; got ${value}.`)
}

function hostNameOption(value: string): string {
  if (value === '*' || /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i.test(value) || /^\[?[0-9a-f:.]*:[0-9a-f:.]*\]?$/i.test(value)) return value
  throw new InvalidArgumentError(`expected host names or addresses without a port, such as ivs-mock or 192.0.2.10, or *; got ${value}.`)
}

function booleanWord(value: string): boolean {
  const word = value.trim().toLowerCase()
  if (['1', 'true', 'yes', 'on'].includes(word)) return true
  if (['0', 'false', 'no', 'off'].includes(word)) return false
  throw new InvalidArgumentError('expected true or false.')
}

function httpUrl(value: string): string {
  if (!/^https?:\/\/[^/\s]+/i.test(value.trim())) throw new InvalidArgumentError('expected an http(s) URL, e.g. http://127.0.0.1:4010.')
  return value.trim()
}

export function serveOptions(): Option[] {
  return [
    new Option('-p, --port <number>', 'port to listen on (0 picks a free one)')
      .env('PORT')
      .default(DEFAULT_PORT)
      .argParser(integer('the port', 0, 65_535)),
    new Option('--host <address>', 'address to bind; 0.0.0.0 exposes the mock to your network')
      .env('IVS_HOST')
      .default('127.0.0.1')
      .argParser(nonEmpty('the host')),
    new Option('--seed <number>', "seed of the generated world; default: fixtures/world.json's")
      .env('IVS_SEED')
      .argParser(integer('the seed', 0, 2_147_483_647)),
    new Option('--data <file>', 'keep state in this JSON file across restarts (seeded when missing); default: in memory')
      .env('IVS_DATA')
      .argParser(nonEmpty('the data file')),
    new Option('--record-expiry-days <days>', 'days until a new record expires when its request names no expiry')
      .env('IVS_RECORD_EXPIRY_DAYS')
      .default(30)
      .argParser(integer('the record expiry', 1, 3650)),
    new Option('--check-delay <seconds>', "seconds of the mock's clock between a client submitting a check and its result")
      .env('IVS_CHECK_DELAY')
      .default(60)
      .argParser(integer('the check delay', 0, 31_536_000)),
    new Option('--scan-delay <seconds>', "seconds of the mock's clock an uploaded attachment's virus scan takes (av_status pending until then)")
      .env('IVS_SCAN_DELAY')
      .default(DEFAULT_SCAN_DELAY_SECONDS)
      .argParser(integer('the scan delay', 0, 31_536_000)),
    new Option('--rate-limit <requests>', 'requests allowed per user and team in each window')
      .env('IVS_RATE_LIMIT')
      .default(200)
      .argParser(integer('the rate limit', 1, 1_000_000_000)),
    new Option('--rate-limit-window <seconds>', 'length of the rate-limit window')
      .env('IVS_RATE_LIMIT_WINDOW')
      .default(60)
      .argParser(integer('the rate-limit window', 1, 86_400)),
    new Option('--clock <timestamp>', "start the mock's clock at this UTC time and let it tick; default: now")
      .env('IVS_CLOCK')
      .argParser(timestamp),
    new Option('--freeze-clock [boolean]', "keep the mock's clock still at its start (--clock or now): it moves only with POST /_mock/clock/advance")
      .env('IVS_FREEZE_CLOCK')
      .default(false)
      .argParser(booleanWord),
    new Option('--cors <boolean>', 'answer cross-origin browser requests at all (false: no CORS headers anywhere)')
      .env('IVS_CORS')
      .default(true)
      .argParser(booleanWord),
    new Option('--cors-origin <origins>', 'origins browsers may call /api/v2 from (repeatable, comma-separated; * any); default: any')
      .env('IVS_CORS_ORIGIN')
      .argParser(list(origin)),
    new Option('--mock-cors-origin <origins>', 'origins browsers may call /_mock and /oauth from (repeatable, comma-separated; * any); default: none')
      .env('IVS_MOCK_CORS_ORIGIN')
      .argParser(list(origin)),
    new Option('--allowed-host <hosts>', 'host names the mock answers to besides localhost, 127.0.0.1, [::1] and the --host address (repeatable, comma-separated; * any)')
      .env('IVS_ALLOWED_HOSTS')
      .argParser(list(hostNameOption)),
    new Option('--journal-size <exchanges>', 'API exchanges the traffic journal keeps per team (GET /_mock/journal); 0 turns it off')
      .env('IVS_JOURNAL_SIZE')
      .default(DEFAULT_JOURNAL_SIZE)
      .argParser(integer('the journal size', 0, 1_000_000)),
    new Option('--latency <ms|min-max>', 'hold every /api/v2 answer this long in real time: milliseconds, or a range drawn at random for each answer')
      .env('IVS_LATENCY')
      .argParser(latencyRange),
    new Option('--max-body <size>', 'largest JSON or form body read (bytes, or e.g. 512kb, 10mb); a larger one is a 413')
      .env('IVS_MAX_BODY')
      .default(DEFAULT_MAX_BODY_BYTES, '1mb')
      .argParser(size('the body limit', 1024, 1024 ** 3)),
    // A negated flag: --no-control turns it off, --no-control false (or IVS_NO_CONTROL=false) leaves it on.
    new Option('--no-control [boolean]', 'serve without the control API (/_mock answers 404, as on a real deployment): to rehearse ivs-mock verify against a target without it')
      .env('IVS_NO_CONTROL')
      .argParser((value) => !booleanWord(value)),
  ]
}

export function toServeConfig(options: Record<string, unknown>): ServeConfig {
  return {
    port: options.port as number,
    host: options.host as string,
    seed: options.seed as number | undefined,
    data: options.data as string | undefined,
    recordExpiryDays: options.recordExpiryDays as number,
    checkDelay: options.checkDelay as number,
    scanDelay: options.scanDelay as number,
    rateLimit: options.rateLimit as number,
    rateLimitWindow: options.rateLimitWindow as number,
    clock: options.clock as Date | undefined,
    freezeClock: options.freezeClock as boolean,
    cors: options.cors as boolean,
    journalSize: options.journalSize as number,
    latency: options.latency as Latency | undefined,
    maxBody: options.maxBody as number,
    corsOrigins: (options.corsOrigin as string[] | undefined) ?? ['*'],
    mockCorsOrigins: (options.mockCorsOrigin as string[] | undefined) ?? [],
    allowedHosts: (options.allowedHost as string[] | undefined) ?? [],
    control: options.control !== false,
  }
}

export interface ProxyConfig {
  upstream: string
  host: string
  port: number
  json: string | undefined
  junit: string | undefined
  record: string | undefined
  /** Role name -> token, for --record. */
  roleTokens: Record<string, string>
}

export const DEFAULT_PROXY_PORT = 4020

function upstreamUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('expected an http or https URL, e.g. https://sandbox.example.')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an http or https URL, e.g. https://sandbox.example.')
  return value
}

export function proxyOptions(): Option[] {
  return [
    new Option('--upstream <url>', 'where requests go: a deployment, any server, or the mock (http or https)').makeOptionMandatory().argParser(upstreamUrl),
    new Option('-p, --port <number>', 'port to listen on (0 picks a free one)').default(DEFAULT_PROXY_PORT).argParser(integer('the port', 0, 65_535)),
    new Option('--host <address>', 'address to bind').default('127.0.0.1').argParser(nonEmpty('the host')),
    new Option('--json <file>', 'on stop, write every exchange and the summary as JSON here').argParser(nonEmpty('the JSON report file')),
    new Option('--junit <file>', 'on stop, write a JUnit XML report here (one test case per exchange)').argParser(nonEmpty('the JUnit report file')),
    new Option('--record <file>', 'on stop, write the session as a scenario for ivs-mock verify (YAML; JSON for a .json file)').argParser(nonEmpty('the scenario file')),
    new Option('--role-token <role=token>', 'with --record: the role a token stands for (repeatable); other tokens take free roles in order, the first owner').argParser(roleToken),
  ]
}

export function toProxyConfig(options: Record<string, unknown>): ProxyConfig {
  return {
    upstream: options.upstream as string,
    host: options.host as string,
    port: options.port as number,
    json: options.json as string | undefined,
    junit: options.junit as string | undefined,
    record: options.record as string | undefined,
    roleTokens: (options.roleToken as Record<string, string> | undefined) ?? {},
  }
}

export interface VerifyConfig {
  base: string | undefined
  /** Tokens by role from --token, --role-token, the environment and --tokens-file (in that order of precedence). */
  tokens: Record<string, string>
  tokensFile: string | undefined
  scenarios: string[] | undefined
  grep: RegExp | undefined
  tags: string[]
  bail: boolean
  junit: string | undefined
  json: string | undefined
  timeoutSeconds: number
  concurrency: number
  wait: boolean
  keep: boolean
  readOnly: boolean
  baseline: string | undefined
  receiverUrl: string | undefined
  receiverPort: number | undefined
  coverage: boolean
}

/** The environment variable of a role's token (IVS_TOKEN_READ_ONLY...). */
export const tokenVariable = (role: string) => `IVS_TOKEN_${role.toUpperCase().replace(/-/g, '_')}`

function roleToken(value: string, previous: Record<string, string> = {}): Record<string, string> {
  const match = /^([a-z-]+)=(.+)$/.exec(value.trim())
  if (!match || !(TOKEN_ROLES as readonly string[]).includes(match[1] as string)) {
    throw new InvalidArgumentError(`expected <role>=<token> with a role among ${TOKEN_ROLES.join(', ')}.`)
  }
  return { ...previous, [match[1] as string]: match[2] as string }
}

function regex(value: string): RegExp {
  try {
    return new RegExp(value, 'i')
  } catch (error) {
    throw new InvalidArgumentError(`not a regular expression: ${(error as Error).message}.`)
  }
}

function apiBase(value: string): string {
  const trimmed = value.trim().replace(/\/+$/, '')
  if (!/^https?:\/\/[^/\s]+(\/\S*)?\/api\/v2$/.test(trimmed)) throw new InvalidArgumentError('expected the API base URL, ending in /api/v2 (https://sandbox.example/api/v2).')
  return trimmed
}

const collect = (value: string, previous: string[] = []) => [...previous, value]

export function verifyOptions(): Option[] {
  return [
    new Option('--base <url>', 'API base URL of the target, ending in /api/v2; default: start the mock in-process on a free port').argParser(apiBase),
    new Option('--token <token>', `the owner's token on the target (or ${tokenVariable('owner')}); with --read-only, the token the crawl reads with`).argParser(nonEmpty('the token')),
    new Option('--role-token <role=token>', `a token for another role (repeatable): ${TOKEN_ROLES.join(', ')}`).argParser(roleToken),
    // Not --env-file: Node 20 takes --env-file for itself wherever it stands on the command line.
    new Option('--tokens-file <file>', `read tokens from an env file of lines ${tokenVariable('owner')}=..., ${tokenVariable('read-only')}=...`).argParser(nonEmpty('the tokens file')),
    new Option('--scenarios <paths...>', 'scenario files or folders; default: the scenarios/ folder of the package'),
    new Option('--grep <regex>', 'only scenarios whose name or file matches (case-insensitive)').argParser(regex),
    new Option('--tag <tag>', 'only scenarios with this tag (repeatable: any of them)').argParser(collect).default([]),
    new Option('--bail', 'start no further scenario after the first failure'),
    new Option('--junit <file>', 'write a JUnit XML report (one test case per scenario)').argParser(nonEmpty('the JUnit file')),
    new Option('--json <file>', 'write a JSON report (every scenario and step)').argParser(nonEmpty('the JSON file')),
    new Option('--timeout <seconds>', 'time limit of each request').default(30).argParser(integer('the timeout', 1, 3600)),
    new Option('--concurrency <n>', 'scenarios run at once').default(4).argParser(integer('the concurrency', 1, 64)),
    new Option('--wait', "without the control API: skip control steps and retry steps with poll until they hold"),
    new Option('--keep', 'keep what the scenarios made (fresh teams on the mock, resources on a target), and list it'),
    new Option('--read-only', "change nothing: run only the scenarios with mutates: false in the tokens' team, then crawl it with --token (every GET operation it has data for); sends GET and HEAD and the writes a step marks safe, and nothing to /_mock but GET"),
    new Option('--baseline <file>', "compare the operations with an earlier run's --json report: what newly fails or is newly not reached is listed first and exits 1; the same verdicts say no drift").argParser(nonEmpty('the baseline file')),
    new Option('--receiver-url <url>', "public URL that forwards to the runner's webhook receiver (for a target that cannot reach this machine)").argParser(httpUrl),
    new Option('--receiver-port <port>', "port of the runner's webhook receiver on 127.0.0.1 (default: a free one), for the forward behind --receiver-url").argParser(integer('the receiver port', 1, 65_535)),
    new Option('--coverage', 'print, per API operationId, how many scenario steps call it, and the uncovered ones; run nothing'),
  ]
}

/** Tokens by role: options first, then the environment, then the tokens file (as with dotenv, the environment wins over the file). */
export function toVerifyConfig(options: Record<string, unknown>, environment: NodeJS.ProcessEnv, tokensFile: Record<string, string>): VerifyConfig {
  const tokens: Record<string, string> = {}
  for (const role of TOKEN_ROLES) {
    const value = environment[tokenVariable(role)] ?? tokensFile[tokenVariable(role)]
    if (value) tokens[role] = value
  }
  Object.assign(tokens, (options.roleToken as Record<string, string> | undefined) ?? {})
  if (options.token) tokens.owner = options.token as string
  return {
    base: options.base as string | undefined,
    tokens,
    tokensFile: options.tokensFile as string | undefined,
    scenarios: options.scenarios as string[] | undefined,
    grep: options.grep as RegExp | undefined,
    tags: options.tag as string[],
    bail: options.bail === true,
    junit: options.junit as string | undefined,
    json: options.json as string | undefined,
    timeoutSeconds: options.timeout as number,
    concurrency: options.concurrency as number,
    wait: options.wait === true,
    keep: options.keep === true,
    readOnly: options.readOnly === true,
    baseline: options.baseline as string | undefined,
    receiverUrl: options.receiverUrl as string | undefined,
    receiverPort: options.receiverPort as number | undefined,
    coverage: options.coverage === true,
  }
}

export interface DiffConfig {
  /** The other document: a file (JSON or YAML) or an http(s) URL. */
  document: string
  json: string | undefined
  markdown: string | undefined
  junit: string | undefined
  accept: string | undefined
  failOnStale: boolean
  validate: boolean
}

export function diffOptions(): Option[] {
  return [
    new Option('--json <file>', 'write the report as JSON (every difference, with the operations it reaches)').argParser(nonEmpty('the JSON file')),
    new Option('--markdown <file>', 'write the report as Markdown, for a pull-request comment').argParser(nonEmpty('the Markdown file')),
    new Option('--junit <file>', 'write a JUnit XML report (one test case per operation, failed by the differences that break clients)').argParser(nonEmpty('the JUnit file')),
    new Option('--accept <file>', 'a YAML list of differences decided on (operation or component, where, reason): left out of the report and the exit status').argParser(nonEmpty('the accept file')),
    new Option('--fail-on-stale', 'exit 1 also when an --accept entry matches no difference any more'),
    new Option('--validate', 'validate the other document against the OpenAPI schema first, and refuse it (exit 2) when it breaks it'),
  ]
}

export function toDiffConfig(document: string, options: Record<string, unknown>): DiffConfig {
  return {
    document,
    json: options.json as string | undefined,
    markdown: options.markdown as string | undefined,
    junit: options.junit as string | undefined,
    accept: options.accept as string | undefined,
    failOnStale: options.failOnStale === true,
    validate: options.validate === true,
  }
}

/** The CLI; actions are attached by main.ts so that this stays free of side effects. */
export function buildCli(version: string): { program: Command; serve: Command; verify: Command; proxy: Command; diff: Command; pactVerify: Command; pactCheck: Command } {
  const program = new Command('ivs-mock')
    .description('Stateful mock of the Identity Verification Service REST API v2.0')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
  program.addHelpText(
    'after',
    `
A bare ivs-mock serves: \`ivs-mock --port 4011\` is \`ivs-mock serve --port 4011\`.
Run ivs-mock <command> --help (or ivs-mock help <command>) for a command's options.`,
  )
  const serve = program.command('serve', { isDefault: true }).description('start the mock server (the default command)').exitOverride()
  for (const option of serveOptions()) serve.addOption(option)
  serve.addHelpText(
    'after',
    `
Every option can also come from the environment variable shown, e.g. PORT=4011.
Examples:
  ivs-mock serve --port 4011
  ivs-mock serve --data ./mock-state.json --clock 2026-06-01T09:00:00Z`,
  )
  const verify = program
    .command('verify')
    .description('run the scenarios against the mock (started in-process) or a real deployment (--base)')
    .exitOverride()
  for (const option of verifyOptions()) verify.addOption(option)
  verify.addHelpText(
    'after',
    `
Tokens also come from ${TOKEN_ROLES.map(tokenVariable).join(', ')}
(in the environment or the --tokens-file). Exit status: 0 nothing failed, 1 a scenario failed
(or, with --baseline, an operation newly fails or is newly not reached), 2 bad usage, a bad
scenario file or baseline, or an unreachable target.
Examples:
  ivs-mock verify
  ivs-mock verify --base https://sandbox.example/api/v2 --token "$TOKEN" --role-token member="$MEMBER" --junit report.xml
  ivs-mock verify --base https://api.example/api/v2 --token "$READ_ONLY_TOKEN" --read-only
  ivs-mock verify --base https://sandbox.example/api/v2 --token "$TOKEN" --read-only --baseline last-night.json --json tonight.json
  ivs-mock verify --grep clients --tag rules --json report.json`,
  )
  const proxy = program.command('proxy').description('validating proxy: forward to --upstream and judge every exchange against the contracts').exitOverride()
  for (const option of proxyOptions()) proxy.addOption(option)
  proxy.addHelpText(
    'after',
    `
Prints one line per exchange; on SIGINT or SIGTERM writes the reports asked for and exits 0.
Example:
  ivs-mock proxy --upstream https://sandbox.example --port 4020 --json proxy.json --junit proxy.xml`,
  )
  const diff = program
    .command('diff')
    .description("compare the mock's contracts (what /openapi.json serves) with another OpenAPI document, such as the vendor's")
    .argument('<document>', 'the other document: a file (JSON or YAML) or an http(s) URL')
    .exitOverride()
  for (const option of diffOptions()) diff.addOption(option)
  diff.addHelpText(
    'after',
    `
Each difference says where it is, what each side says, and whether it breaks clients built against
the mock (the other side refuses a request the mock accepts, or may answer what the mock never does)
or is fidelity only. Exit status: 0 nothing breaks clients, 1 something does (or, with
--fail-on-stale, an --accept entry is stale), 2 a document or the accept file cannot be read (or,
with --validate, the document breaks the OpenAPI schema), or a report cannot be written.
Examples:
  ivs-mock diff https://vendor.example/openapi.yaml
  ivs-mock diff vendor-openapi.json --accept accepted-differences.yaml --markdown diff.md --junit diff.xml`,
  )
  const pact = program.command('pact').description('check and verify Pact consumer contracts (pact files V2, V3, V4)').exitOverride()
  const pactVerify = pact
    .command('verify')
    .description('replay pacts against the mock (started in-process unless --base), provider states set up through the control API')
    .argument('<pact-files...>', 'pact files to verify')
    .addOption(new Option('--base <url>', 'origin of a running mock, e.g. http://127.0.0.1:4010; default: start one in-process on 127.0.0.1').argParser(httpUrl))
    .addHelpText('after', `\nProvider states, each set up in the interaction's own fresh team. Every state also takes ${ROLE_PARAM}.\n${describeStates().map((line) => `  ${line}`).join('\n')}`)
    .exitOverride()
  const pactCheck = pact
    .command('check')
    .description('check every interaction against contracts/, with no provider running')
    .argument('<pact-files...>', 'pact files to check')
    .exitOverride()
  for (const command of [pactVerify, pactCheck]) command.addHelpText('after', '\nExit codes: 0 every interaction passed, 1 one failed (named, with where and why), 2 bad usage or an unreadable pact file.')
  return { program, serve, verify, proxy, diff, pactVerify, pactCheck }
}

/**
 * The one line for a command word the CLI does not know, or undefined. Commander would take an
 * unknown word after a bare \`ivs-mock\` as an argument of serve, the default command, and answer
 * "too many arguments for 'serve'"; a group (pact) has its own commands, checked the same way.
 */
export function unknownCommand(program: Command, args: readonly string[]): string | undefined {
  let command = program
  let name = program.name()
  for (const word of args) {
    if (word.startsWith('-') || command.commands.length === 0) return undefined
    // Commander's own help command: \`help <command>\` names a command of the same level.
    if (word === 'help') continue
    const next = command.commands.find((sub) => sub.name() === word)
    if (!next) return `${name}: unknown command '${word}' (commands: ${command.commands.map((sub) => sub.name()).join(', ')}; run with --help for usage)`
    command = next
    name = `${name} ${word}`
  }
  return undefined
}
