export interface CreditRow {
  id: number
  /** Positive for a top-up, negative for usage. */
  credits: number
  reason: string | null
  /** null when the service itself made the entry (docs/specification-notes.md "Credits"). */
  causer: { id: number; type: 'user' | 'check' } | null
  created_at: string
}
