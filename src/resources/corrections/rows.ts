import type { Frozen } from '../../kernel/frozen.ts'

/** A name correction a client proposed while completing a record. */
export interface CorrectionRow {
  readonly id: number
  readonly client: number
  readonly record: number
  readonly status: 'pending' | 'accepted' | 'rejected'
  readonly correction: Frozen<{ first_name: string; middle_name: string | null; last_name: string }>
  readonly created_at: string
  readonly updated_at: string
}
