import type { Frozen } from '../../kernel/frozen.ts'
import type { OrganisationJurisdictionJson, OrganisationStatusJson } from '../../contracts/generated.ts'
import type { AddressRow } from '../clients/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'

export interface OrganisationRow {
  readonly id: number
  readonly status: OrganisationStatusJson
  readonly name: string
  readonly company_number: string | null
  readonly jurisdiction: OrganisationJurisdictionJson | null
  readonly reference: string | null
  readonly incorporated_at: string | null
  readonly address: Frozen<AddressRow> | null
  /** Member client ids, in the order they joined. */
  readonly clients: readonly number[]
  readonly assignees: readonly AssigneeRow[]
  readonly created_at: string
  readonly updated_at: string
  readonly archived_at: string | null
}
