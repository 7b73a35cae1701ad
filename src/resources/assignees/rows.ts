/** A team member assigned to a client, record, case or organisation. */
export interface AssigneeRow {
  id: number
  user: number
  created_at: string
}

declare module '../../store/world.ts' {
  interface IdSequences {
    assignee: true
  }
}
