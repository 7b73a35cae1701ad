// Build step "check": what start-up trusts without checking (checking it on every start cost about
// 150 ms): every schema document against the JSON Schema meta-schema, every operations file against
// operation-file.schema.json, the world fixture against world.schema.json, and the scenario format
// (scenario.schema.json) against the meta-schema.
import { readFileSync } from 'node:fs'
import { AjvContracts, checkOperationFiles } from '../contracts/ajv.ts'
import { scenarioSchemaPath } from '../paths.ts'
import { checkWorldFixture } from '../seed/fixture.ts'

export function check(): void {
  // Operations files first: a malformed one would break loading the contracts below.
  checkOperationFiles()
  // AjvContracts checks each schema document against the meta-schema as it adds it (validateSchemas).
  const contracts = new AjvContracts()
  checkWorldFixture(contracts)
  // Compiling checks it against the meta-schema (and that its $refs into contracts/schemas resolve).
  contracts.compile(JSON.parse(readFileSync(scenarioSchemaPath, 'utf8')) as Record<string, unknown>)
}
