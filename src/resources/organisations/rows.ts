import type { OrganisationJurisdictionJson, OrganisationStatusJson } from '../../contracts/generated.ts'
import type { AddressRow } from '../clients/index.ts'
import type { AssigneeRow } from '../assignees/index.ts'

export interface OrganisationRow {
  id: number
  status: OrganisationStatusJson
  name: string
  company_number: string | null
  jurisdiction: OrganisationJurisdictionJson | null
  reference: string | null
  incorporated_at: string | null
  address: AddressRow | null
  /** Member client ids, in the order they joined. */
  clients: number[]
  assignees: AssigneeRow[]
  created_at: string
  updated_at: string
  archived_at: string | null
}
