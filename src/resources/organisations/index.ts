export type { OrganisationRow } from './rows.ts'
export { archiveOrganisation, getOrganisation, unarchiveOrganisation } from './service.ts'
export { organisationTables } from './tables.ts'
