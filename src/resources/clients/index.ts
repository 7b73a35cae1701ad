export { presentAddress, presentClient, presentName } from './present.ts'
export type { AddressRow, ClientRow, NameRow } from './rows.ts'
export { addressFrom, findClient, getClient } from './service.ts'
