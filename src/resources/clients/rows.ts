import type { AddressJson, ClientJson, NameJson } from '../../contracts/generated.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** A decision on a client (its row holds null until one is made). */
export type ClientStatus = Exclude<ClientJson['status'], null>

export interface NameRow {
  title: NameJson['title']
  other_title: string | null
  first_name: string
  middle_name: string | null
  last_name: string
}

export type AddressRow = Omit<AddressJson, 'object'>

export const EMPTY_ADDRESS: AddressRow = {
  unit: null,
  house_name: null,
  house_number: null,
  street_name: null,
  second_street: null,
  district: null,
  city: null,
  province: null,
  postcode: null,
  country: null,
}

export interface ClientRow {
  id: number
  status: ClientStatus | null
  name: NameRow
  email: string
  landline: string | null
  mobile: string | null
  dob: string | null
  reference: string | null
  national_insurance_number: string | null
  deletion_date: string | null
  address: AddressRow | null
  assignees: AssigneeRow[]
  created_by: number | null
  created_at: string
  updated_at: string
  archived_at: string | null
}
