// Typed configuration from flags and environment variables, with defaults and --help.
// Bad input exits with code 2 and a one-line reason (see main.ts).
import { Command, InvalidArgumentError, Option } from 'commander'
import { describeStates, ROLE_PARAM } from './harness/pact/states.ts'
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
  cors: boolean
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

function nonEmpty(name: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${name} must not be empty.`)
    return value
  }
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
    new Option('--cors <boolean>', 'answer cross-origin browser requests from any origin')
      .env('IVS_CORS')
      .default(true)
      .argParser(booleanWord),
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
    cors: options.cors as boolean,
  }
}

/** The CLI; actions are attached by main.ts so that this stays free of side effects. */
export function buildCli(version: string): { program: Command; serve: Command; pactVerify: Command; pactCheck: Command } {
  const program = new Command('ivs-mock')
    .description('Stateful mock of the Identity Verification Service REST API v2.0')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
  const serve = program.command('serve', { isDefault: true }).description('start the mock server').exitOverride()
  for (const option of serveOptions()) serve.addOption(option)
  serve.addHelpText(
    'after',
    `
Every option can also come from the environment variable shown, e.g. PORT=4011.
Examples:
  ivs-mock serve --port 4011
  ivs-mock serve --data ./mock-state.json --clock 2026-06-01T09:00:00Z`,
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
  return { program, serve, pactVerify, pactCheck }
}
