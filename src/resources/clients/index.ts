export { presentAddress, presentClient } from './present.ts'
export type { AddressRow, ClientRow } from './rows.ts'
export { addressFrom, findClient, getClient } from './service.ts'
