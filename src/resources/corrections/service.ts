// Name corrections a client proposes while completing a record (docs/specification-notes.md "Corrections",
// docs/specification-notes.md "Wire details"). A pending one gives its record the status amendments (records/status.ts); the
// team accepts it (possibly modified: the name parts are written into the client's name) or
// rejects it, once.
import { canSee, emit, type RequestContext, type TeamContext } from '../../context.ts'
import type { ClientsCorrectionsListQuery, CorrectionUpdateJson } from '../../contracts/generated.ts'
import { forbidden, NOT_ASSIGNED, notAllowed, notFoundMessage } from '../../kernel/errors.ts'
import { sortRows } from '../../kernel/sort.ts'
import type { Draft } from '../../store/table.ts'
import type { ClientRow } from '../clients/index.ts'
import { publishRecordUpdated, type RecordRow } from '../records/index.ts'
import { type CorrectionRow } from './rows.ts'

export type ProposedName = CorrectionRow['correction']

const NAME_PARTS = ['first_name', 'middle_name', 'last_name'] as const

/** The record of a correction changes (its amendments status starts or ends): record.updated. */
function correctionsRecordChanged(ctx: TeamContext, correction: CorrectionRow): void {
  const record = ctx.team.records.get(correction.record)
  if (record) publishRecordUpdated(ctx, record)
}

/**
 * The client proposes a name correction on a record (the lifecycle engine, the seed and the
 * control API call this): a pending correction, which makes the record's status amendments, so
 * the record changes (record.updated).
 */
export function proposeCorrection(ctx: TeamContext, record: RecordRow, proposed: { first_name: string; middle_name?: string | null; last_name: string }): CorrectionRow {
  const now = ctx.clock.timestamp()
  const correction = ctx.team.corrections.insert({
    id: ctx.store.nextId('correction'),
    client: record.client,
    record: record.id,
    status: 'pending',
    correction: { first_name: proposed.first_name, middle_name: proposed.middle_name ?? null, last_name: proposed.last_name },
    created_at: now,
    updated_at: now,
  })
  correctionsRecordChanged(ctx, correction)
  return correction
}

export function listCorrections(ctx: RequestContext, client: ClientRow, query: ClientsCorrectionsListQuery): CorrectionRow[] {
  const { status } = query
  const corrections = ctx.team.correctionsByClient.get(client.id).filter((correction) => status === undefined || correction.status === status)
  return sortRows(corrections, { created_at: (correction) => correction.created_at }, query)
}

export interface ClientCorrection {
  client: ClientRow
  correction: CorrectionRow
}

/**
 * The client and correction of PATCH /clients/{clientId}/corrections/{correctionId}, with this
 * operation's own 404 bodies under the key message (docs/specification-notes.md "Wire details"); 403 for an
 * assigned-only member not assigned to the client.
 */
export function findCorrection(ctx: RequestContext, params: { clientId: number; correctionId: number }): ClientCorrection {
  const client = ctx.team.clients.get(params.clientId)
  if (!client) throw notFoundMessage('Client')
  if (!canSee(ctx, client)) throw forbidden(NOT_ASSIGNED)
  const correction = ctx.team.correctionsByClient.get(client.id).find((row) => row.id === params.correctionId)
  if (!correction) throw notFoundMessage('Correction')
  return { client, correction }
}

/** Writes the accepted name parts into the client's name: client.updated when that changes it. */
function applyToClient(ctx: RequestContext, client: ClientRow, name: ProposedName, now: string): void {
  if (NAME_PARTS.every((part) => client.name[part] === name[part])) return
  ctx.team.clients.update(client, { name: { ...client.name, ...name }, updated_at: now })
  emit(ctx, 'client.updated', { client: client.id })
}

/**
 * Accepts (the body's name parts, when given, merge into the proposal first, and the result is
 * what the correction then shows and the client's name takes) or rejects a pending correction;
 * 405 once it is no longer pending. Either way the record's amendments end (record.updated).
 */
export function decideCorrection(ctx: RequestContext, { client, correction }: ClientCorrection, input: CorrectionUpdateJson): CorrectionRow {
  if (correction.status !== 'pending') throw notAllowed('Correction has already been completed')
  const now = ctx.clock.timestamp()
  let applied = correction.correction
  if (input.status === 'accepted') {
    const merged: Draft<ProposedName> = { ...correction.correction }
    for (const part of NAME_PARTS) {
      const value = input.correction?.[part]
      if (value !== undefined) merged[part] = value as string
    }
    applied = merged
    applyToClient(ctx, client, applied, now)
  }
  ctx.team.corrections.update(correction, { correction: applied, status: input.status, updated_at: now })
  correctionsRecordChanged(ctx, correction)
  return correction
}
