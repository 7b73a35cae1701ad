// The server's contracts: the query and body validators the build compiled from contracts/
// (src/build/validators.ts writes each one's code, Ajv's standalone output, to dist/validators/),
// each made from its file when its operation is first validated. Neither Ajv nor a schema compile
// is then on the way to the first answer.
import { existsSync, readFileSync } from 'node:fs'
import type { ValidateFunction } from 'ajv'
import equalModule from 'ajv/dist/runtime/equal.js'
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js'
import { fullFormats } from 'ajv-formats/dist/formats.js'
import { contractsDir, prebuiltValidatorsDir } from '../paths.ts'
import { Contracts } from './load.ts'

/** A CommonJS module's exports.default: Node hands an ES module the whole exports object, vitest the default itself. */
function defaultOf(module: unknown): unknown {
  return (module as { default?: unknown }).default ?? module
}

/**
 * What a validator's code may require: the modules of Ajv and ajv-formats it calls at run time,
 * bundled with the server (the build refuses code that requires anything else).
 */
export const VALIDATOR_RUNTIME: Readonly<Record<string, unknown>> = {
  'ajv/dist/runtime/equal': { default: defaultOf(equalModule) },
  'ajv/dist/runtime/ucs2length': { default: defaultOf(ucs2lengthModule) },
  'ajv-formats/dist/formats': { fullFormats },
}

/** Where the build writes the validator of an operation's query or body, and the fingerprint of the contracts they came from. */
export const validatorFile = (dir: string, kind: 'query' | 'body', id: string) => `${dir}/${kind}.${id}.js`
export const fingerprintFile = (dir: string) => `${dir}/contracts.sha256`
/** The first line of a validator's file: the fingerprint of the contracts it was compiled from. */
export const validatorHeader = (fingerprint: string) => `// contracts ${fingerprint}\n`

function requireRuntime(name: string): unknown {
  if (!(name in VALIDATOR_RUNTIME)) throw new Error(`a prebuilt validator requires ${name}, which the server does not bundle`)
  return VALIDATOR_RUNTIME[name]
}

/** A validator from its module's code (CommonJS: it sets module.exports), run as Ajv runs the code it generates. */
function instantiate(code: string): ValidateFunction {
  const module: { exports: unknown } = { exports: undefined }
  // The code is the build's, from the contracts; Ajv itself makes every validator it compiles this way.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('require', 'module', code)(requireRuntime, module)
  return module.exports as ValidateFunction
}

export class PrebuiltContracts extends Contracts {
  private readonly made = new Map<string, ValidateFunction>()

  private constructor(
    dir: string,
    private readonly validatorsDir: string,
  ) {
    super(dir)
  }

  /**
   * The contracts in `dir` with the validators in `validatorsDir`, or undefined when the build has
   * not written them for these contracts (missing, or made from contracts that have changed since).
   */
  static open(dir = contractsDir, validatorsDir = prebuiltValidatorsDir): PrebuiltContracts | undefined {
    const fingerprint = fingerprintFile(validatorsDir)
    if (!existsSync(fingerprint)) return undefined
    const contracts = new PrebuiltContracts(dir, validatorsDir)
    return readFileSync(fingerprint, 'utf8') === contracts.fingerprint ? contracts : undefined
  }

  queryValidator(id: string): ValidateFunction {
    return this.validator('query', id)
  }

  bodyValidator(id: string): ValidateFunction | undefined {
    return this.operation(id).body ? this.validator('body', id) : undefined
  }

  private validator(kind: 'query' | 'body', id: string): ValidateFunction {
    const file = validatorFile(this.validatorsDir, kind, id)
    let validate = this.made.get(file)
    if (!validate) {
      const code = readFileSync(file, 'utf8')
      // The build ran again since this mock started, from contracts other than those it serves.
      if (!code.startsWith(validatorHeader(this.fingerprint))) throw new Error(`${file} was compiled from other contracts than this mock read at start: restart it`)
      validate = instantiate(code)
      this.made.set(file, validate)
    }
    return validate
  }
}
