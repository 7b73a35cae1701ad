export { presentAddress, presentClient, presentName } from './present.ts'
export type { AddressRow, ClientRow, NameRow } from './rows.ts'
export { addressFrom, archiveClient, deletionReminderDue, findClient, getClient, unarchiveClient } from './service.ts'
export { clientTables } from './tables.ts'
