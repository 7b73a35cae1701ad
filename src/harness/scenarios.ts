// Reading scenario files: YAML (or JSON) through the yaml package, checked against
// contracts/scenario.schema.json and against the contracts (operationIds that exist, unique names),
// with every problem named by file and dot path, before anything runs.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { extname, join, relative, resolve } from 'node:path'
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js'
import { parse as parseYaml, YAMLParseError } from 'yaml'
import type { AjvContracts } from '../contracts/ajv.ts'
import { CONTRACTS_BASE, dotPath, type JsonSchema } from '../contracts/load.ts'
import type { Conformance } from './conformance.ts'
import { READ_METHODS } from './http.ts'
import type { ControlStep, OperationStep, PathStep, ReceiveStep, Scenario, Step } from '../contracts/scenario.generated.ts'

export type { ControlStep, OperationStep, PathStep, ReceiveStep, Scenario, Step }

export interface LoadedScenario extends Scenario {
  /** The file, relative to the working directory when it is below it (as reports show it). */
  file: string
}

/** Scenario files that break the format: one line per problem, `file: dot.path: message`. */
export class ScenarioFormatError extends Error {
  constructor(readonly problems: string[]) {
    super(`${problems.length === 1 ? 'a scenario file is' : `${problems.length} problems in scenario files`} not valid:\n${problems.map((line) => `  ${line}`).join('\n')}`)
    this.name = 'ScenarioFormatError'
  }
}

const SCENARIO_EXTENSIONS = new Set(['.yaml', '.yml', '.json'])
const SCENARIO_SCHEMA_ID = `${CONTRACTS_BASE}scenario.schema.json`
const STEP_KINDS = ['operationStep', 'pathStep', 'controlStep', 'receiveStep'] as const
type StepKind = (typeof STEP_KINDS)[number]

export function stepKind(step: Step): 'operation' | 'path' | 'control' | 'receive' {
  if ('operation' in step) return 'operation'
  if ('control' in step) return 'control'
  if ('receive' in step) return 'receive'
  return 'path'
}

/**
 * The operationId a step calls: its operation or control operation, or for a method and path the
 * operation with that contract path (/clients/{id}) or that a concrete path (/clients/12) reaches.
 */
export function stepOperationId(step: Step, conformance: Conformance): string | undefined {
  if ('operation' in step) return step.operation
  if ('control' in step) return step.control
  if (!('method' in step)) return undefined
  const byTemplate = [...conformance.contracts.operations.values()].find((op) => op.surface === 'api' && op.method === step.method && op.path === step.path)
  return byTemplate?.id ?? conformance.match(step.method, step.path.replace(/\{[^}]+\}/g, '1'))?.op.id
}

/** The scenario files of some files and folders (folders searched recursively), in a stable order. */
export function scenarioFiles(paths: string[]): string[] {
  const files: string[] = []
  const visit = (path: string, named: boolean) => {
    if (!existsSync(path)) throw new ScenarioFormatError([`${path}: no such file or folder`])
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) visit(join(path, entry), false)
    } else if (named || SCENARIO_EXTENSIONS.has(extname(path))) {
      files.push(path)
    }
  }
  for (const path of paths) visit(path, true)
  return [...new Set(files.map((file) => resolve(file)))]
}

/** A file as reports name it: relative to the working directory when below it, else absolute. */
export function displayPath(file: string): string {
  const below = relative(process.cwd(), file)
  return below.startsWith('..') ? file : below
}

/** The JSON Schema validators of the format: the whole file, and each kind of step on its own (for precise errors). */
function formatValidators(contracts: AjvContracts): { file: ValidateFunction; steps: Record<StepKind, ValidateFunction> } {
  const schema = JSON.parse(readFileSync(join(contracts.dir, 'scenario.schema.json'), 'utf8')) as JsonSchema
  const file = contracts.compile(schema)
  const steps = Object.fromEntries(
    STEP_KINDS.map((kind) => [kind, contracts.compile({ $id: `${CONTRACTS_BASE}scenario-${kind}.json`, $ref: `${SCENARIO_SCHEMA_ID}#/$defs/${kind}` })]),
  ) as Record<StepKind, ValidateFunction>
  return { file, steps }
}

function describe(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown key "${String(params.additionalProperty)}"`
    case 'required':
      return `"${String(params.missingProperty)}" is required`
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`
    case 'type':
      return `must be ${String(params.type).replace(/,/g, ' or ')}`
    case 'pattern':
      return `must match ${String(params.pattern)}`
    case 'not':
      return 'takes only one of body, rawBody and upload'
    default:
      return error.message ?? error.keyword
  }
}

/**
 * Plain problems from Ajv's errors. A matcher or a status may take several shapes (oneOf): when
 * one shape has a precise complaint (an unknown key) it wins over "must be string" from the
 * others, and the shapes' bare type complaints merge into one ("must be integer or array").
 */
function problemsOf(errors: ErrorObject[], prefix: string): string[] {
  const meaningful = errors.filter((error) => error.keyword !== 'oneOf')
  const precise = meaningful.filter((error) => error.keyword !== 'type')
  const byPath = new Map<string, string[]>()
  for (const error of meaningful) {
    const path = dotPath(error.instancePath)
    if (error.keyword === 'type' && precise.some((other) => dotPath(other.instancePath).startsWith(path))) continue
    const messages = byPath.get(path) ?? []
    byPath.set(path, messages)
    const message = describe(error)
    const typeMessage = /^must be (.+)$/.exec(message)
    const earlierType = messages.findIndex((earlier) => earlier.startsWith('must be ') && !earlier.includes('one of'))
    if (error.keyword === 'type' && typeMessage && earlierType >= 0) messages[earlierType] = `${messages[earlierType] as string} or ${typeMessage[1] as string}`
    else if (!messages.includes(message)) messages.push(message)
  }
  if (byPath.size === 0 && errors.length > 0) byPath.set(dotPath(errors[0]?.instancePath ?? ''), [describe(errors[0] as ErrorObject)])
  return [...byPath].flatMap(([path, messages]) => messages.map((message) => `${[prefix, path].filter(Boolean).join('.') || '(file)'}: ${message}`))
}

function stepKindOf(step: unknown): StepKind | undefined {
  if (typeof step !== 'object' || step === null) return undefined
  if ('operation' in step) return 'operationStep'
  if ('control' in step) return 'controlStep'
  if ('receive' in step) return 'receiveStep'
  if ('method' in step || 'path' in step) return 'pathStep'
  return undefined
}

function schemaProblems(content: unknown, validators: ReturnType<typeof formatValidators>): string[] {
  if (validators.file(content)) return []
  const stepErrors = /^\/steps\/(\d+)(\/|$)/
  const problems = problemsOf(
    (validators.file.errors ?? []).filter((error) => !stepErrors.test(error.instancePath)),
    '',
  )
  const steps = (content as { steps?: unknown }).steps
  if (Array.isArray(steps)) {
    steps.forEach((step, index) => {
      const kind = stepKindOf(step)
      if (!kind) {
        const shape = typeof step === 'object' && step !== null ? '' : ` (got ${JSON.stringify(step)})`
        problems.push(`steps.${index}: a step needs operation, method + path, control or receive${shape}`)
      } else if (!validators.steps[kind](step)) {
        problems.push(...problemsOf(validators.steps[kind].errors ?? [], `steps.${index}`))
      }
    })
  }
  return problems
}

/** The method an operation, path or control step sends (undefined for a receive step or an unknown operation). */
export function stepMethod(step: Step, contracts: AjvContracts): string | undefined {
  if ('operation' in step) return contracts.operations.get(step.operation)?.method
  if ('control' in step) return contracts.operations.get(step.control)?.method
  return 'method' in step ? step.method : undefined
}

/**
 * Why --read-only does not send a step, or undefined: a control step other than a GET (a write to
 * /_mock), or a write (anything but GET and HEAD) the step does not mark safe.
 */
export function notReadOnly(step: Step, contracts: AjvContracts): string | undefined {
  const method = stepMethod(step, contracts)
  if (method === undefined || READ_METHODS.has(method)) return undefined
  if ('control' in step) return `${step.control} is a ${method} to the mock's control API (/_mock)`
  if ('safe' in step && step.safe !== undefined) return undefined
  const what = 'operation' in step ? `${step.operation} (${method})` : `${method} ${'path' in step ? step.path : ''}`
  return `${what} is a write the step does not mark safe`
}

/** What the schema cannot say: operationIds that exist, unique names, samples that exist, writes a scenario with mutates: false does not mark safe. */
function contractProblems(scenario: Scenario, contracts: AjvContracts, samplesDir: string): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  scenario.steps.forEach((step, index) => {
    const at = `steps.${index}`
    if (seen.has(step.name)) problems.push(`${at}.name: "${step.name}" names an earlier step too`)
    seen.add(step.name)
    if ('operation' in step) {
      const op = contracts.operations.get(step.operation)
      if (!op || op.surface !== 'api') problems.push(`${at}.operation: no API operation ${step.operation} in contracts/operations`)
      else if (step.find && !op.paged) problems.push(`${at}.find: ${step.operation} is not a paged list`)
    }
    if ('control' in step) {
      const op = contracts.operations.get(step.control)
      if (!op || op.surface !== 'control') problems.push(`${at}.control: no control operation ${step.control} in contracts/control`)
    }
    if ('safe' in step && step.safe === 'refused') {
      const statuses = [step.expect?.status ?? []].flat()
      if (statuses.length === 0 || statuses.some((status) => status < 400 || status > 499)) problems.push(`${at}.safe: refused needs expect.status with only 4xx statuses (the refusal the step checks)`)
    }
    const unsafe = scenario.mutates === false ? notReadOnly(step, contracts) : undefined
    if (unsafe) {
      const remedy = 'control' in step ? 'drop mutates: false' : 'mark it safe: refused if the API refuses it before any change and the step checks that refusal, safe: computes if the operation only works out an answer, or drop mutates: false'
      problems.push(`${at}: mutates: false, but ${unsafe}: ${remedy}`)
    }
    if ('upload' in step && step.upload && !existsSync(join(samplesDir, step.upload.sample))) {
      problems.push(`${at}.upload.sample: no sample ${step.upload.sample} in fixtures/samples`)
    }
  })
  return problems
}

function parseFile(file: string, text: string): unknown {
  if (extname(file) === '.json') return JSON.parse(text)
  return parseYaml(text, { uniqueKeys: true, prettyErrors: true })
}

export interface LoadOptions {
  /** Where upload samples are (default: fixtures/samples beside contracts/). */
  samplesDir?: string
}

export function defaultSamplesDir(contracts: AjvContracts): string {
  return join(contracts.dir, '..', 'fixtures', 'samples')
}

/** Reads and checks every scenario of some files and folders; throws a ScenarioFormatError listing every problem. */
export function loadScenarios(paths: string[], contracts: AjvContracts, options: LoadOptions = {}): LoadedScenario[] {
  const validators = formatValidators(contracts)
  const samplesDir = options.samplesDir ?? defaultSamplesDir(contracts)
  const problems: string[] = []
  const scenarios: LoadedScenario[] = []
  const names = new Map<string, string>()
  const files = scenarioFiles(paths)
  if (files.length === 0) throw new ScenarioFormatError([`${paths.join(', ')}: no scenario files (.yaml, .yml, .json)`])
  for (const path of files) {
    const file = displayPath(path)
    let content: unknown
    try {
      content = parseFile(path, readFileSync(path, 'utf8'))
    } catch (error) {
      const where = error instanceof YAMLParseError && error.linePos ? `line ${error.linePos[0].line}, column ${error.linePos[0].col}` : 'syntax'
      problems.push(`${file}: ${where}: ${((error as Error).message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '')}`)
      continue
    }
    const found = [...schemaProblems(content, validators)]
    if (found.length === 0) found.push(...contractProblems(content as Scenario, contracts, samplesDir))
    if (found.length > 0) {
      problems.push(...found.map((problem) => `${file}: ${problem}`))
      continue
    }
    const scenario = content as Scenario
    const earlier = names.get(scenario.name)
    if (earlier) problems.push(`${file}: name: "${scenario.name}" is also the name of ${earlier}`)
    names.set(scenario.name, file)
    scenarios.push({ ...scenario, file })
  }
  if (problems.length > 0) throw new ScenarioFormatError(problems)
  return scenarios
}
