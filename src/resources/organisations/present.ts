import type { OrganisationJson } from '../../contracts/generated.ts'
import type { RequestContext } from '../../context.ts'
import { listRelation, type Expand } from '../../kernel/expand.ts'
import { presentAssigneesRelation } from '../assignees/index.ts'
import { presentAddress, presentClient } from '../clients/index.ts'
import type { OrganisationRow } from './rows.ts'
import { organisationClients } from './service.ts'

/** docs/specification-notes.md "Wire details": an expanded relation of an organisation shows its first 25. */
const RELATION_LIMIT = 25

export function presentOrganisation(ctx: RequestContext, organisation: OrganisationRow, expand: Expand, baseUrl: string): OrganisationJson {
  const url = `${baseUrl}/organisations/${organisation.id}`
  return {
    object: 'organisation' as const,
    id: organisation.id,
    status: organisation.status,
    name: organisation.name,
    company_number: organisation.company_number,
    jurisdiction: organisation.jurisdiction,
    reference: organisation.reference,
    incorporated_at: organisation.incorporated_at,
    address: organisation.address && presentAddress(organisation.address),
    assignees: presentAssigneesRelation(ctx, organisation.assignees, expand.has('assignees'), { limit: RELATION_LIMIT, url: `${url}/assignees` }),
    clients: listRelation(
      organisationClients(ctx, organisation),
      expand.has('clients'),
      { limit: RELATION_LIMIT, url: `${url}/clients` },
      (client) => client.id,
      (client) => presentClient(ctx, client),
    ),
    created_at: organisation.created_at,
    updated_at: organisation.updated_at,
    archived_at: organisation.archived_at,
  }
}
