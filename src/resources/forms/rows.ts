import type { Frozen } from '../../kernel/frozen.ts'
import type { FormFieldJson } from '../../contracts/generated.ts'

/** A form's field as stored and returned (contracts/schemas/form-field.json), read-only as a row's part. */
export type FormField = Frozen<FormFieldJson>

/** The fields of a form that take an answer: only they have validation, flag and value (docs/specification-notes.md "Forms and form templates"). */
export type AnswerField = Extract<FormField, { value: unknown }>

/**
 * A client's form, addressed by reference: internal (the team's, seeded) or requested (made from
 * a form template when a record with a form step is created, filled in when the client submits it).
 */
export interface FormRow {
  readonly id: number
  readonly reference: string
  readonly type: 'internal' | 'requested'
  readonly client: number
  readonly record: number | null
  /** The record's form step (requested forms). */
  readonly step: number | null
  /** The reference of the form template it was made from. */
  readonly template: string | null
  readonly name: string
  readonly description: string | null
  readonly instructions: string | null
  /** The template's fields with the answers. */
  readonly fields: readonly FormField[]
  readonly version: number
  readonly created_at: string
  readonly updated_at: string
  readonly completed_at: string | null
  readonly archived_at: string | null
}
