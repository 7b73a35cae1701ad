export { presentAddress, presentClient, presentName } from './present.ts'
export { EMPTY_ADDRESS, type AddressRow, type ClientRow, type ClientStatus, type NameRow } from './rows.ts'
export { addressFrom, archiveClient, deletionReminderDue, findClient, getClient, unarchiveClient } from './service.ts'
export { clientTables } from './tables.ts'
