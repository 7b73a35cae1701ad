import type { Frozen } from '../../kernel/frozen.ts'
export interface CreditRow {
  readonly id: number
  /** Positive for a top-up, negative for usage. */
  readonly credits: number
  readonly reason: string | null
  /** null when the service itself made the entry (docs/specification-notes.md "Credits"). */
  readonly causer: Frozen<{ id: number; type: 'user' | 'check' } | null>
  readonly created_at: string
}
