/**
 * A request issued to a client. Only what other resources already depend on is stored so far
 * (a client with records can only be deleted by an admin); steps, checks and expiry come with the
 * records endpoints.
 */
export interface RecordRow {
  id: number
  client: number
  created_by: number | null
  created_at: string
  updated_at: string
}
