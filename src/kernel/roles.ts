// Team roles as the real service has them (docs/specification-notes.md "Roles"). There is no admin role: the product
// calls the owner role "Admin", so the spec's "Admin users" are owners.
export const ROLES = ['owner', 'member', 'read-only', 'assigned-only', 'assumed'] as const

export type Role = (typeof ROLES)[number]

/** Owners, and support users acting in the team (assumed), who are treated like owners. */
export function ownsTeam(role: Role): boolean {
  return role === 'owner' || role === 'assumed'
}

/** Read-only members may read but not change anything: 403 on every write. */
export function canWrite(role: Role): boolean {
  return role !== 'read-only'
}

/** Assigned-only members see and act on only the clients, records, cases and organisations assigned to them. */
export function seesOnlyAssigned(role: Role): boolean {
  return role === 'assigned-only'
}
