import type { AssigneeRow } from '../team/rows.ts'

export interface OrganisationRow {
  id: number
  status: string | null
  name: string
  company_number: string | null
  jurisdiction: string | null
  reference: string | null
  incorporated_at: string | null
  /** Member client ids, in the order they joined. */
  clients: number[]
  assignees: AssigneeRow[]
  created_at: string
  updated_at: string
  archived_at: string | null
}
