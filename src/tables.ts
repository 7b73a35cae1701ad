// Every resource's tables, one line each: the store opens them for each team (store/world.ts), in
// this order, which is also the order in which a deleted client's rows go. What a record is made
// of (checks, step reviews, record documents, corrections) comes before records: the records'
// table follows theirs, and they go before the records they hang off.
import { attachmentTables } from './resources/attachments/index.ts'
import { caseTables } from './resources/cases/index.ts'
import { checkTables } from './resources/checks/index.ts'
import { clientTables } from './resources/clients/index.ts'
import { correctionTables } from './resources/corrections/index.ts'
import { creditTables } from './resources/credits/index.ts'
import { documentTables } from './resources/documents/index.ts'
import { fileTables } from './resources/files/index.ts'
import { formTemplateTables } from './resources/form-templates/index.ts'
import { formTables } from './resources/forms/index.ts'
import { organisationTables } from './resources/organisations/index.ts'
import { recordDocumentTables } from './resources/record-documents/index.ts'
import { recordTables } from './resources/records/index.ts'
import { stepReviewTables } from './resources/step-reviews/index.ts'
import { recordTemplateTables } from './resources/templates/index.ts'
import { webhookTables } from './resources/webhooks/index.ts'
import type { TableDeclaration } from './store/world.ts'

export const TABLES: readonly TableDeclaration[] = [
  clientTables,
  organisationTables,
  creditTables,
  checkTables,
  stepReviewTables,
  recordDocumentTables,
  correctionTables,
  recordTables,
  recordTemplateTables,
  caseTables,
  attachmentTables,
  fileTables,
  documentTables,
  formTemplateTables,
  formTables,
  webhookTables,
]
