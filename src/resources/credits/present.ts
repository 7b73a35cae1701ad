import type { CreditRow } from './rows.ts'

/**
 * causer is {id, type}, or null when the service made the entry. With expand=causer only a check
 * causer expands, to the Check (FACTS.md, Credits); check causers come with records, so today every
 * causer stays collapsed.
 */
export function presentCredit(row: CreditRow) {
  return {
    object: 'credit_history' as const,
    id: row.id,
    credits: row.credits,
    reason: row.reason,
    created_at: row.created_at,
    causer: row.causer && { id: row.causer.id, type: row.causer.type },
  }
}
