import type { CaseStatusJson } from '../../contracts/generated.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** A record in a case (rules 4 to 6 of docs/specification-notes.md "Rules of the service": only PATCH /cases/{id}/items puts it there). */
export interface CaseItemRow {
  readonly id: number
  readonly record: number
  readonly created_at: string
  readonly updated_at: string
}

/** An optional grouping of one client's records with a reviewable status (docs/specification-notes.md "Cases"). */
export interface CaseRow {
  readonly id: number
  readonly client: number
  readonly name: string
  readonly reference: string | null
  readonly status: CaseStatusJson
  /** When the status last changed (GET /aggregates/case-status start_date / end_date). */
  readonly status_changed_at: string
  /** In the order they were added. */
  readonly items: readonly CaseItemRow[]
  /** Set outside the API (docs/specification-notes.md "Cases": only GET /cases/{id}/assignees exists); the control API sets them. */
  readonly assignees: readonly AssigneeRow[]
  readonly created_by: number | null
  readonly created_at: string
  readonly updated_at: string
  readonly archived_at: string | null
}

export interface CaseReviewRow {
  readonly id: number
  readonly case: number
  readonly reviewed_by: number
  readonly status: CaseStatusJson
  readonly from_status: CaseStatusJson
  readonly created_at: string
  readonly updated_at: string
}
