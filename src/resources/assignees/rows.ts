/** A team member assigned to a client, record, case or organisation. */
export interface AssigneeRow {
  readonly id: number
  readonly user: number
  readonly created_at: string
}

declare module '../../store/world.ts' {
  interface IdSequences {
    assignee: true
  }
}
