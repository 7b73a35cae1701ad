import type { FormFieldJson } from '../../contracts/generated.ts'

/** A form's field as stored and returned (contracts/schemas/form-field.json). */
export type FormField = FormFieldJson

/** The fields of a form that take an answer: only they have validation, flag and value (docs/specification-notes.md "Forms and form templates"). */
export type AnswerField = Extract<FormField, { value: unknown }>

/**
 * A client's form, addressed by reference: internal (the team's, seeded) or requested (made from
 * a form template when a record with a form step is created, filled in when the client submits it).
 */
export interface FormRow {
  id: number
  reference: string
  type: 'internal' | 'requested'
  client: number
  record: number | null
  /** The record's form step (requested forms). */
  step: number | null
  /** The reference of the form template it was made from. */
  template: string | null
  name: string
  description: string | null
  instructions: string | null
  /** The template's fields with the answers. */
  fields: FormField[]
  version: number
  created_at: string
  updated_at: string
  completed_at: string | null
  archived_at: string | null
}
