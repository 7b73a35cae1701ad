// The visibility filters of the lists (visibility, client_visibility): active, archived, or both
// when absent. A row that is missing (a deleted client) counts as active, like a null archived_at.
export type Visibility = 'active' | 'archived'

export function hasVisibility(visibility: Visibility | undefined, archivedAt: string | null | undefined): boolean {
  return visibility === undefined || (visibility === 'archived') === (archivedAt !== null && archivedAt !== undefined)
}

/** Where a row stands for the visibility filter. */
export function visibilityOf(row: { archived_at: string | null }): Visibility {
  return row.archived_at === null ? 'active' : 'archived'
}
