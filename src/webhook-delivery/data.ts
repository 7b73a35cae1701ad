// The `data` of a webhook delivery (docs/specification-notes.md "Events"): ids and absolute API links, never
// personal data, in the shape each event has. Built from the event's subjects when the delivery
// is built, so a deleted client or record still gets its ids; the only lookup is the case holding
// a record as an item (through the client's cases, never the whole team).
import type { DomainEvent } from '../kernel/events.ts'
import type { Store, Team } from '../store/world.ts'

/** A client, case or check: its id and GET link. */
interface Link {
  id: number
  show: string
}
interface RecordLink {
  id: number
  show: string
  download: string
}
type TypedRecordLink = { id: number; type: 'client' } & Omit<RecordLink, 'id'>

/** The shapes of contracts/events/ (the generated types of their links are not usable as values). */
export type DeliveryData =
  | ['ping']
  | { client: Link | { id: number }; record?: RecordLink }
  | { case: Link; client: Link }
  | { record: TypedRecordLink; client: Link; case: Link | null; check?: Link }
  | { form: { reference: string; show: string }; client?: Link; record?: RecordLink; case?: Link | null }

/** A subject id the event must carry (a number: client, record, case, check). */
function idOf(event: DomainEvent, subject: string): number {
  const id = event.subjects[subject]
  if (typeof id !== 'number') throw new Error(`event ${event.type}: no ${subject} id in its subjects`)
  return id
}

/**
 * The case a record is an item of, or undefined. A record may only join cases of its own client
 * (rules 4 to 6 of docs/specification-notes.md "Rules of the service"), so the client's cases are all that is looked at; when it is an item of
 * several, the one it joined first.
 */
export function caseHolding(team: Team | undefined, client: number, record: number): number | undefined {
  let holder: { case: number; item: number } | undefined
  for (const row of team?.casesByClient.get(client) ?? []) {
    const item = row.items.find((candidate) => candidate.record === record)
    if (item && (holder === undefined || item.id < holder.item)) holder = { case: row.id, item: item.id }
  }
  return holder?.case
}

/** data of an event for a delivery; apiBase is the API's absolute base, e.g. http://127.0.0.1:4010/api/v2. */
export function deliveryData(store: Store, event: DomainEvent, apiBase: string): DeliveryData {
  if (event.type === 'ping') return ['ping']
  const base = apiBase.replace(/\/+$/, '')
  const team = store.team(event.teamId)
  const client = (id: number): Link => ({ id, show: `${base}/clients/${id}` })
  const record = (id: number): RecordLink => ({ id, show: `${base}/records/${id}`, download: `${base}/records/${id}/download` })
  const typedRecord = (id: number): TypedRecordLink => ({ id, type: 'client', show: `${base}/records/${id}`, download: `${base}/records/${id}/download` })
  const caseLink = (id: number): Link => ({ id, show: `${base}/cases/${id}` })
  const caseOf = (clientId: number, recordId: number): Link | null => {
    const id = caseHolding(team, clientId, recordId)
    return id === undefined ? null : caseLink(id)
  }
  const [category] = event.type.split('.')
  switch (category) {
    case 'client': {
      const id = idOf(event, 'client')
      if (event.type === 'client.deleted') return { client: { id } }
      if (event.type === 'client.record') return { client: client(id), record: record(idOf(event, 'record')) }
      return { client: client(id) }
    }
    case 'case':
      return { case: caseLink(idOf(event, 'case')), client: client(idOf(event, 'client')) }
    case 'record': {
      const [id, clientId] = [idOf(event, 'record'), idOf(event, 'client')]
      return { record: typedRecord(id), client: client(clientId), case: caseOf(clientId, id) }
    }
    case 'form': {
      const reference = event.subjects.form
      if (typeof reference !== 'string') throw new Error(`event ${event.type}: no form reference in its subjects`)
      const clientId = idOf(event, 'client')
      const form = { reference, show: `${base}/clients/${clientId}/forms/${reference}` }
      const recordId = event.subjects.record
      const ofRecord = typeof recordId === 'number' ? { record: record(recordId), case: caseOf(clientId, recordId) } : {}
      return event.type === 'form.deleted' ? { form, ...ofRecord } : { form, client: client(clientId), ...ofRecord }
    }
    case 'watchlist': {
      const [check, id, clientId] = [idOf(event, 'check'), idOf(event, 'record'), idOf(event, 'client')]
      return {
        check: { id: check, show: `${base}/checks/${check}` },
        record: typedRecord(id),
        client: client(clientId),
        case: caseOf(clientId, id),
      }
    }
    default:
      throw new Error(`event ${event.type}: no delivery data for it`)
  }
}
