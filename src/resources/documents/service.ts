// The team's libraries: documents (GET /documents), email templates (GET /templates/emails) and
// document templates (GET /templates/documents). They are seeded (src/seed/libraries.ts), not
// made through the API; steps name them (src/resources/steps/library.ts).
import type { TeamContext } from '../../context.ts'
import type { Table } from '../../store/table.ts'
import type { DocumentTemplateRow, EmailTemplateRow, LibraryDocumentRow } from './rows.ts'

/** The rows of a library, all of them or only the enabled (true) or disabled (false) ones, oldest first. */
function byEnabled<T extends { id: number; is_enabled: boolean }>(table: Table<T>, enabled: boolean | undefined): readonly T[] {
  return enabled === undefined ? table.all() : table.filter((row) => row.is_enabled === enabled)
}

export const libraryDocuments = (ctx: TeamContext, enabled?: boolean): readonly LibraryDocumentRow[] => byEnabled(ctx.team.libraryDocuments, enabled)

export const emailTemplates = (ctx: TeamContext, enabled?: boolean): readonly EmailTemplateRow[] => byEnabled(ctx.team.emailTemplates, enabled)

export const documentTemplates = (ctx: TeamContext, enabled?: boolean): readonly DocumentTemplateRow[] => byEnabled(ctx.team.documentTemplates, enabled)
