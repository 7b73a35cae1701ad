// The whole mock's state: users and tokens (global, as in the real service), and one isolated
// state per team, chosen by the token. The data is plain JSON, so lowdb persists it as it is; the
// Store and each Team add the indexes requests need (tables with a Map by id).
import type { Role } from '../kernel/roles.ts'
import type { ClientRow } from '../resources/clients/rows.ts'
import type { CreditRow } from '../resources/credits/rows.ts'
import type { MemberRow, TeamRow, TokenRow, UserRow } from './identity.ts'
import type { OrganisationRow } from '../resources/organisations/rows.ts'
import type { CaseReviewRow, CaseRow } from '../resources/cases/rows.ts'
import type { CheckRow, CorrectionRow, RecordDocumentRow, RecordRow, RecordTemplateRow, StepReviewRow } from '../resources/records/rows.ts'
import type { JobRow } from '../kernel/scheduler.ts'
import type { AttachmentRow } from '../resources/attachments/rows.ts'
import type { DocumentTemplateRow, EmailTemplateRow, LibraryDocumentRow } from '../resources/documents/rows.ts'
import type { ClientDocumentRow, FileRow } from '../resources/files/rows.ts'
import type { FormTemplateRow } from '../resources/form-templates/rows.ts'
import type { FormRow } from '../resources/forms/rows.ts'
import type { WebhookDeliveryRow, WebhookRow } from '../resources/webhooks/rows.ts'
import { Table, type GroupIndex, type UniqueIndex } from './table.ts'

/** Bumped when the stored shape changes, so an old --data file is refused with a clear message. */
export const WORLD_FORMAT = 6

/** One team's persisted state. */
export interface TeamState {
  team: TeamRow
  members: MemberRow[]
  clients: ClientRow[]
  organisations: OrganisationRow[]
  credits: CreditRow[]
  records: RecordRow[]
  checks: CheckRow[]
  step_reviews: StepReviewRow[]
  record_documents: RecordDocumentRow[]
  corrections: CorrectionRow[]
  record_templates: RecordTemplateRow[]
  cases: CaseRow[]
  case_reviews: CaseReviewRow[]
  attachments: AttachmentRow[]
  files: FileRow[]
  client_documents: ClientDocumentRow[]
  library_documents: LibraryDocumentRow[]
  email_templates: EmailTemplateRow[]
  document_templates: DocumentTemplateRow[]
  form_templates: FormTemplateRow[]
  forms: FormRow[]
  webhooks: WebhookRow[]
  webhook_deliveries: WebhookDeliveryRow[]
}

/** A team with nothing in it yet. */
export function newTeamState(team: TeamRow): TeamState {
  return { team, members: [], clients: [], organisations: [], credits: [], records: [], checks: [], step_reviews: [], record_documents: [], corrections: [], record_templates: [], cases: [], case_reviews: [], attachments: [], files: [], client_documents: [], library_documents: [], email_templates: [], document_templates: [], form_templates: [], forms: [], webhooks: [], webhook_deliveries: [] }
}

/** A team's state with its indexes. Change it only through its tables and methods. */
export class Team {
  readonly clients: Table<ClientRow>
  readonly organisations: Table<OrganisationRow>
  readonly credits: Table<CreditRow>
  readonly records: Table<RecordRow>
  readonly recordsByClient: GroupIndex<number, RecordRow>
  readonly checks: Table<CheckRow>
  readonly stepReviews: Table<StepReviewRow>
  readonly reviewsByStep: GroupIndex<number, StepReviewRow>
  readonly recordDocuments: Table<RecordDocumentRow>
  readonly documentsByRecord: GroupIndex<number, RecordDocumentRow>
  readonly corrections: Table<CorrectionRow>
  readonly correctionsByClient: GroupIndex<number, CorrectionRow>
  readonly recordTemplates: Table<RecordTemplateRow>
  readonly cases: Table<CaseRow>
  readonly casesByClient: GroupIndex<number, CaseRow>
  readonly caseReviews: Table<CaseReviewRow>
  readonly reviewsByCase: GroupIndex<number, CaseReviewRow>
  readonly attachments: Table<AttachmentRow>
  readonly files: Table<FileRow>
  readonly filesByClient: GroupIndex<number, FileRow>
  readonly filesByAttachment: GroupIndex<number, FileRow>
  readonly clientDocuments: Table<ClientDocumentRow>
  readonly libraryDocuments: Table<LibraryDocumentRow>
  readonly emailTemplates: Table<EmailTemplateRow>
  readonly documentTemplates: Table<DocumentTemplateRow>
  readonly formTemplates: Table<FormTemplateRow>
  readonly formTemplatesByReference: UniqueIndex<string, FormTemplateRow>
  readonly forms: Table<FormRow>
  readonly formsByClient: GroupIndex<number, FormRow>
  readonly formsByReference: UniqueIndex<string, FormRow>
  readonly webhooks: Table<WebhookRow>
  readonly webhookDeliveries: Table<WebhookDeliveryRow>
  readonly deliveriesByWebhook: GroupIndex<number, WebhookDeliveryRow>
  private readonly membersByUser = new Map<number, MemberRow>()

  constructor(readonly state: TeamState) {
    this.clients = new Table(state.clients)
    this.organisations = new Table(state.organisations)
    this.credits = new Table(state.credits)
    this.records = new Table(state.records)
    this.recordsByClient = this.records.groupBy((record) => record.client)
    this.checks = new Table(state.checks)
    this.stepReviews = new Table(state.step_reviews)
    this.reviewsByStep = this.stepReviews.groupBy((review) => review.step)
    this.recordDocuments = new Table(state.record_documents)
    this.documentsByRecord = this.recordDocuments.groupBy((document) => document.record)
    this.corrections = new Table(state.corrections)
    this.correctionsByClient = this.corrections.groupBy((correction) => correction.client)
    this.recordTemplates = new Table(state.record_templates)
    this.cases = new Table(state.cases)
    this.casesByClient = this.cases.groupBy((row) => row.client)
    this.caseReviews = new Table(state.case_reviews)
    this.reviewsByCase = this.caseReviews.groupBy((review) => review.case)
    this.attachments = new Table(state.attachments)
    this.files = new Table(state.files)
    this.filesByClient = this.files.groupBy((file) => file.client)
    this.filesByAttachment = this.files.groupBy((file) => file.attachment)
    this.clientDocuments = new Table(state.client_documents)
    this.libraryDocuments = new Table(state.library_documents)
    this.emailTemplates = new Table(state.email_templates)
    this.documentTemplates = new Table(state.document_templates)
    this.formTemplates = new Table(state.form_templates)
    this.formTemplatesByReference = this.formTemplates.uniqueBy((template) => template.reference)
    this.forms = new Table(state.forms)
    this.formsByClient = this.forms.groupBy((form) => form.client)
    this.formsByReference = this.forms.uniqueBy((form) => form.reference)
    this.webhooks = new Table(state.webhooks)
    this.webhookDeliveries = new Table(state.webhook_deliveries)
    this.deliveriesByWebhook = this.webhookDeliveries.groupBy((delivery) => delivery.webhook)
    for (const member of state.members) this.membersByUser.set(member.user, member)
  }

  get id(): number {
    return this.state.team.id
  }

  get row(): TeamRow {
    return this.state.team
  }

  /** Everyone who is or was in the team (role null: left), in the order they joined. */
  get members(): readonly MemberRow[] {
    return this.state.members
  }

  /** A current member (not someone who left). */
  member(userId: number): MemberRow | undefined {
    const member = this.membersByUser.get(userId)
    return member?.role ? member : undefined
  }

  /** The membership row of anyone who is or was in the team. */
  membership(userId: number): MemberRow | undefined {
    return this.membersByUser.get(userId)
  }

  /** The organisations a client belongs to (an organisation holds its clients' ids). */
  organisationsOf(clientId: number): OrganisationRow[] {
    return this.organisations.filter((organisation) => organisation.clients.includes(clientId))
  }

  /** Takes a client out of every organisation; returns those it left. */
  removeClientFromOrganisations(clientId: number): OrganisationRow[] {
    const left = this.organisationsOf(clientId)
    for (const organisation of left) organisation.clients.splice(organisation.clients.indexOf(clientId), 1)
    return left
  }

  hasRecords(clientId: number): boolean {
    return this.recordsByClient.get(clientId).length > 0
  }

  /**
   * Deletes what belongs to a client being deleted: its records with everything that hangs off
   * them (checks, reviews, documents, corrections), its cases with their reviews, and its files,
   * client documents and forms. Returns the ids of the attachments those held, for the caller to
   * delete those nothing else uses (with their bytes).
   */
  removeDependentsOf(clientId: number): Set<number> {
    const held = new Set<number>()
    for (const record of [...this.recordsByClient.get(clientId)]) {
      for (const step of record.steps) {
        if (step.check !== null) this.checks.delete(step.check)
        for (const review of [...this.reviewsByStep.get(step.id)]) this.stepReviews.delete(review.id)
      }
      for (const document of [...this.documentsByRecord.get(record.id)]) {
        for (const id of document.attachments) held.add(id)
        this.recordDocuments.delete(document.id)
      }
      this.records.delete(record.id)
    }
    for (const file of [...this.filesByClient.get(clientId)]) {
      held.add(file.attachment)
      this.files.delete(file.id)
    }
    for (const document of this.clientDocuments.filter((row) => row.client === clientId)) this.clientDocuments.delete(document.id)
    for (const form of [...this.formsByClient.get(clientId)]) {
      for (const id of formAttachments(form)) held.add(id)
      this.forms.delete(form.id)
    }
    for (const correction of [...this.correctionsByClient.get(clientId)]) this.corrections.delete(correction.id)
    for (const row of [...this.casesByClient.get(clientId)]) {
      for (const review of [...this.reviewsByCase.get(row.id)]) this.caseReviews.delete(review.id)
      this.cases.delete(row.id)
    }
    return held
  }

  addMember(user: number, role: Role | null, joinedAt: string): MemberRow {
    if (this.membersByUser.has(user)) throw new Error(`team ${this.id}: user ${user} is a member already`)
    const member: MemberRow = { user, role, joined_at: joinedAt }
    this.state.members.push(member)
    this.membersByUser.set(user, member)
    return member
  }
}

/** The attachments a form holds: the answers of its document fields (arrays of attachment ids). */
export function formAttachments(form: FormRow): number[] {
  return form.fields.flatMap((field) => (field.type === 'document' && Array.isArray(field.value) ? field.value.filter((id): id is number => typeof id === 'number') : []))
}

/** Ids are unique across the whole service, like the real one's, so another team's id is a 404. */
export type SequenceName =
  | 'user'
  | 'team'
  | 'client'
  | 'organisation'
  | 'credit'
  | 'assignee'
  | 'record'
  | 'step'
  | 'check'
  | 'step_review'
  | 'record_document'
  | 'correction'
  | 'record_template'
  | 'job'
  | 'case'
  | 'case_item'
  | 'case_review'
  | 'attachment'
  | 'file'
  | 'client_document'
  | 'library_document'
  | 'email_template'
  | 'document_template'
  | 'form_template'
  | 'form'
  | 'webhook'
  | 'webhook_delivery'

export interface WorldData {
  format: typeof WORLD_FORMAT
  seed: number
  sequences: Partial<Record<SequenceName, number>>
  users: UserRow[]
  tokens: TokenRow[]
  teams: TeamState[]
  /** Work due later on the mock's clock (src/kernel/scheduler.ts). */
  jobs: JobRow[]
}

export interface Identity {
  token: TokenRow
  user: UserRow
  team: Team
  member: MemberRow & { role: Role }
}

export class Store {
  private readonly tokens = new Map<string, TokenRow>()
  private readonly users = new Map<number, UserRow>()
  private readonly teams = new Map<number, Team>()

  constructor(readonly data: WorldData) {
    for (const user of data.users) this.users.set(user.id, user)
    for (const token of data.tokens) this.tokens.set(token.token, token)
    for (const state of data.teams) this.teams.set(state.team.id, new Team(state))
  }

  nextId(sequence: SequenceName): number {
    const next = (this.data.sequences[sequence] ?? 0) + 1
    this.data.sequences[sequence] = next
    return next
  }

  user(id: number): UserRow | undefined {
    return this.users.get(id)
  }

  userByEmail(email: string): UserRow | undefined {
    const wanted = email.toLowerCase()
    return this.data.users.find((user) => user.email.toLowerCase() === wanted)
  }

  team(id: number): Team | undefined {
    return this.teams.get(id)
  }

  allTeams(): IterableIterator<Team> {
    return this.teams.values()
  }

  /** Teams the user is currently a member of, in the order they were created. */
  teamsOf(userId: number): Team[] {
    return [...this.teams.values()].filter((team) => team.member(userId) !== undefined)
  }

  addUser(user: UserRow): void {
    this.data.users.push(user)
    this.users.set(user.id, user)
  }

  addToken(token: TokenRow): void {
    this.data.tokens.push(token)
    this.tokens.set(token.token, token)
  }

  addTeam(state: TeamState): Team {
    const team = new Team(state)
    this.data.teams.push(state)
    this.teams.set(team.id, team)
    return team
  }

  /**
   * Drops a team with everything in it, its tokens, and the users who belong to no other team.
   * Returns false when there is no such team.
   */
  removeTeam(id: number): boolean {
    const team = this.teams.get(id)
    if (!team) return false
    this.teams.delete(id)
    this.data.teams.splice(this.data.teams.indexOf(team.state), 1)
    const orphans = new Set(team.members.map((member) => member.user).filter((user) => ![...this.teams.values()].some((other) => other.membership(user))))
    const keptTokens = this.data.tokens.filter((token) => token.team !== id && !orphans.has(token.user))
    for (const token of this.data.tokens) if (!keptTokens.includes(token)) this.tokens.delete(token.token)
    this.data.tokens.splice(0, this.data.tokens.length, ...keptTokens)
    for (const user of orphans) this.users.delete(user)
    const keptUsers = this.data.users.filter((user) => !orphans.has(user.id))
    this.data.users.splice(0, this.data.users.length, ...keptUsers)
    return true
  }

  /**
   * A token's user, team and membership; undefined when unknown, revoked, expired, orphaned, or
   * when the user has left the team. now is only asked for when the token can expire (this runs
   * on every request).
   */
  resolveToken(value: string, now: () => string): Identity | undefined {
    const token = this.tokens.get(value)
    if (!token || token.revoked_at !== null) return undefined
    if (token.expires_at !== null && token.expires_at <= now()) return undefined
    const user = this.users.get(token.user)
    const team = this.teams.get(token.team)
    const member = team?.member(token.user)
    if (!user || user.is_disabled || !team || !member) return undefined
    return { token, user, team, member: member as MemberRow & { role: Role } }
  }
}
