export interface CreditRow {
  id: number
  /** Positive for a top-up, negative for usage. */
  credits: number
  reason: string | null
  causer: { id: number; type: 'user' | 'check' }
  created_at: string
}
