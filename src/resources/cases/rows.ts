import type { CaseStatusJson } from '../../contracts/generated.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** A record in a case (rules 4 to 6 of docs/specification-notes.md "Rules of the service": only PATCH /cases/{id}/items puts it there). */
export interface CaseItemRow {
  id: number
  record: number
  created_at: string
  updated_at: string
}

/** An optional grouping of one client's records with a reviewable status (docs/specification-notes.md "Cases"). */
export interface CaseRow {
  id: number
  client: number
  name: string
  reference: string | null
  status: CaseStatusJson
  /** When the status last changed (GET /aggregates/case-status start_date / end_date). */
  status_changed_at: string
  /** In the order they were added. */
  items: CaseItemRow[]
  /** Set outside the API (docs/specification-notes.md "Cases": only GET /cases/{id}/assignees exists); the control API sets them. */
  assignees: AssigneeRow[]
  created_by: number | null
  created_at: string
  updated_at: string
  archived_at: string | null
}

export interface CaseReviewRow {
  id: number
  case: number
  reviewed_by: number
  status: CaseStatusJson
  from_status: CaseStatusJson
  created_at: string
  updated_at: string
}
