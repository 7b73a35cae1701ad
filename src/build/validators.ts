// Build step "validators": every operation's query and body validator, compiled by Ajv from the
// contracts (src/contracts/ajv.ts) and written out as code, one file each in dist/validators/, with
// the fingerprint of the contracts they came from. The server runs these (src/contracts/prebuilt.ts)
// instead of loading Ajv and compiling at its first requests.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { AjvContracts } from '../contracts/ajv.ts'
import { fingerprintFile, validatorFile, VALIDATOR_RUNTIME } from '../contracts/prebuilt.ts'
import { contractsDir, prebuiltValidatorsDir } from '../paths.ts'

/** Each validator's file (relative to the validators' folder) and code, and the fingerprint file last. */
export function validatorFiles(dir = contractsDir): Map<string, string> {
  const contracts = new AjvContracts(dir, { validateSchemas: false, code: true })
  const files = new Map<string, string>()
  for (const op of contracts.operations.values()) {
    for (const kind of ['query', 'body'] as const) {
      const code = contracts.standaloneSource(kind, op.id)
      if (code === undefined) continue
      for (const name of [...code.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1] as string)) {
        if (!(name in VALIDATOR_RUNTIME)) throw new Error(`the ${kind} validator of ${op.id} requires ${name}: add it to VALIDATOR_RUNTIME (src/contracts/prebuilt.ts)`)
      }
      files.set(basename(validatorFile('', kind, op.id)), code)
    }
  }
  files.set(basename(fingerprintFile('')), contracts.fingerprint)
  return files
}

export function writeValidators(): string {
  const files = validatorFiles()
  // Written into a folder aside and renamed over the old one, so no start reads half of them.
  const temporary = `${prebuiltValidatorsDir}.${process.pid}.tmp`
  const old = `${prebuiltValidatorsDir}.${process.pid}.old`
  rmSync(temporary, { recursive: true, force: true })
  mkdirSync(temporary, { recursive: true })
  for (const [name, code] of files) writeFileSync(`${temporary}/${name}`, code)
  rmSync(old, { recursive: true, force: true })
  try {
    renameSync(prebuiltValidatorsDir, old)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  renameSync(temporary, prebuiltValidatorsDir)
  rmSync(old, { recursive: true, force: true })
  const bytes = [...files.values()].reduce((sum, code) => sum + code.length, 0)
  return `dist/validators/: ${files.size - 1} validators, ${(bytes / 1_000_000).toFixed(1)} MB`
}
