import type { Frozen } from '../../kernel/frozen.ts'
import type { AddressJson, ClientJson, NameJson } from '../../contracts/generated.ts'
import type { AssigneeRow } from '../assignees/index.ts'

/** A decision on a client (its row holds null until one is made). */
export type ClientStatus = Exclude<ClientJson['status'], null>

export interface NameRow {
  readonly title: NameJson['title']
  readonly other_title: string | null
  readonly first_name: string
  readonly middle_name: string | null
  readonly last_name: string
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
  readonly id: number
  readonly status: ClientStatus | null
  readonly name: NameRow
  readonly email: string
  readonly landline: string | null
  readonly mobile: string | null
  readonly dob: string | null
  readonly reference: string | null
  readonly national_insurance_number: string | null
  readonly deletion_date: string | null
  readonly address: Frozen<AddressRow> | null
  readonly assignees: readonly AssigneeRow[]
  readonly created_by: number | null
  readonly created_at: string
  readonly updated_at: string
  readonly archived_at: string | null
}
