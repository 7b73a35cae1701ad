// Files: a client's attachments with where they came from. The team's own uploads come through
// POST /clients/{id}/files (routes.ts); record documents, forms and checks add theirs here when an
// attachment becomes part of them, so GET /files and the client's files list show everything.
import type { TeamContext } from '../../context.ts'
import type { FileRow } from './rows.ts'

export type NewFile = Omit<FileRow, 'id' | 'created_at' | 'updated_at' | 'is_deletable' | 'expires_at'> &
  Partial<Pick<FileRow, 'is_deletable' | 'expires_at'>>

/** Adds a client file; only the team's own files (source client) are deletable by default. */
export function addFile(ctx: TeamContext, file: NewFile): FileRow {
  const now = ctx.clock.timestamp()
  return ctx.team.files.insert({
    id: ctx.store.nextId('file'),
    is_deletable: file.source.type === 'client',
    expires_at: null,
    ...file,
    created_at: now,
    updated_at: now,
  })
}
