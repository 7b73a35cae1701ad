// Build step "check": what start-up trusts without checking (checking it on every start cost about
// 150 ms): every schema document against the JSON Schema meta-schema, every operations file against
// operation-file.schema.json, and the world fixture against world.schema.json.
import { checkOperationFiles, Contracts } from '../contracts/load.ts'
import { checkWorldFixture } from '../seed/fixture.ts'

export function check(): void {
  // Operations files first: a malformed one would break loading the contracts below.
  checkOperationFiles()
  // Contracts checks each schema document against the meta-schema as it adds it (validateSchemas).
  checkWorldFixture(new Contracts())
}
