import type { AddressJson, ClientJson, NameJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import { EMPTY_ADDRESS, type AddressRow, type ClientRow, type NameRow } from './rows.ts'
import { canDeleteClient } from './rules.ts'

const TITLE_DISPLAY: Record<string, string> = {
  miss: 'Miss',
  ms: 'Ms',
  mrs: 'Mrs',
  mr: 'Mr',
  dr: 'Dr',
  sir: 'Sir',
  master: 'Master',
  mx: 'Mx',
  dame: 'Dame',
  lord: 'Lord',
  lady: 'Lady',
  prof: 'Prof',
}

/** The parts that are set (neither null nor empty), joined by spaces: without arrays, as every client presented calls it three times. */
function joinNames(first: string | null, second: string | null, third: string | null = null): string {
  let joined = first || ''
  if (second) joined = joined === '' ? second : `${joined} ${second}`
  if (third) joined = joined === '' ? third : `${joined} ${third}`
  return joined
}

export function presentName(name: NameRow): NameJson {
  const title = name.title === 'other' ? name.other_title : name.title && (TITLE_DISPLAY[name.title] ?? name.title)
  const fullName = joinNames(name.first_name, name.middle_name, name.last_name)
  return {
    object: 'name' as const,
    title: name.title,
    other_title: name.other_title,
    first_name: name.first_name,
    middle_name: name.middle_name,
    last_name: name.last_name,
    name: joinNames(name.first_name, name.last_name),
    full_name: fullName,
    complete_name: joinNames(title ?? null, fullName),
  }
}

export function presentAddress(address: AddressRow | null): AddressJson {
  return { object: 'address' as const, ...(address ?? EMPTY_ADDRESS) }
}

export function presentClient(ctx: RequestContext, client: ClientRow): ClientJson {
  return {
    object: 'client' as const,
    id: client.id,
    status: client.status,
    name: presentName(client.name),
    email: client.email,
    landline: client.landline,
    mobile: client.mobile,
    dob: client.dob,
    reference: client.reference,
    national_insurance_number: client.national_insurance_number,
    is_deletable: canDeleteClient(ctx, ctx.team.holdsClient(client.id)),
    deletion_date: client.deletion_date,
    created_at: client.created_at,
    updated_at: client.updated_at,
    archived_at: client.archived_at,
  }
}
