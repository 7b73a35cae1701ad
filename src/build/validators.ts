// Build step "validators": every operation's query and body validator, compiled by Ajv from the
// contracts (src/contracts/ajv.ts) and written out as code, one file each in dist/validators/, each
// headed by the fingerprint of the contracts it came from, as is the folder. The server runs these
// (src/contracts/prebuilt.ts) instead of loading Ajv and compiling at its first requests.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename } from 'node:path'
import { AjvContracts } from '../contracts/ajv.ts'
import { fingerprintFile, validatorFile, validatorHeader, VALIDATOR_RUNTIME } from '../contracts/prebuilt.ts'
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
      files.set(basename(validatorFile('', kind, op.id)), `${validatorHeader(contracts.fingerprint)}${code}`)
    }
  }
  // Last: writeValidators writes the files in this order.
  files.set(basename(fingerprintFile('')), contracts.fingerprint)
  return files
}

export function writeValidators(): string {
  const files = validatorFiles()
  mkdirSync(prebuiltValidatorsDir, { recursive: true })
  // Each file is written aside and renamed over the old one, so a running mock reads a whole old or
  // new file (a new one from other contracts is refused by its header); the fingerprint goes last.
  for (const [name, code] of files) {
    const temporary = `${prebuiltValidatorsDir}/${name}.${process.pid}.tmp`
    writeFileSync(temporary, code)
    renameSync(temporary, `${prebuiltValidatorsDir}/${name}`)
  }
  // Operations that are gone, and leftovers of a build that failed midway.
  for (const name of readdirSync(prebuiltValidatorsDir)) if (!files.has(name)) rmSync(`${prebuiltValidatorsDir}/${name}`, { force: true })
  const bytes = [...files.values()].reduce((sum, code) => sum + code.length, 0)
  return `dist/validators/: ${files.size - 1} validators, ${(bytes / 1_000_000).toFixed(1)} MB`
}
