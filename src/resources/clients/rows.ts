import type { AssigneeRow } from '../team/rows.ts'

export type ClientStatus = 'pending' | 'approved' | 'rejected'

export interface NameRow {
  title: string | null
  other_title: string | null
  first_name: string
  middle_name: string | null
  last_name: string
}

export interface AddressRow {
  unit: string | null
  house_name: string | null
  house_number: string | null
  street_name: string | null
  second_street: string | null
  district: string | null
  city: string | null
  province: string | null
  postcode: string | null
  country: string | null
}

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
