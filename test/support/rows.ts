// Rows put straight into a team's state, for states that are slow to reach through the API (a
// check with a given status, a record in any shape). Prefer the API where it serves the state.
import { completeForm, createForm, type FormRow } from '../../src/resources/forms/index.ts'
import { sampleAttachment, type SampleName } from '../../src/resources/attachments/index.ts'
import { addFile, type FileRow } from '../../src/resources/files/index.ts'
import { createRecordDocuments } from '../../src/resources/record-documents/index.ts'
import type { RecordRow, StepRow } from '../../src/resources/records/index.ts'
import type { CheckRow } from '../../src/resources/checks/index.ts'
import { completePreferences } from '../../src/resources/steps/index.ts'
import type { Draft } from '../../src/store/table.ts'
import type { Team } from '../../src/store/world.ts'
import { NOW, type TestMock } from './mock.ts'
import { MINIMAL_PREFERENCES } from './steps.ts'

export interface StepSetup {
  type: StepRow['type']
  /** Stored as given; left out, the type's minimal preferences completed with their defaults (as the API stores them). */
  preferences?: Record<string, unknown>
  cost?: number
  completed_at?: string | null
  /** check.* steps: the check's fields. */
  check?: Partial<Omit<CheckRow, 'id' | 'record' | 'step' | 'type'>>
}

/**
 * Gives a client a record (no steps unless given); returns the stored row. Document steps get
 * their record documents, as record creation makes them.
 */
export function giveRecord(mock: TestMock, team: Team, clientId: number, setup: { steps?: StepSetup[] } & Partial<Omit<RecordRow, 'steps'>> = {}): RecordRow {
  // A change of the world outside a request, as one write unit, as the product makes one (store/changes.ts).
  return mock.store.changing(() => {
    const client = team.clients.get(clientId)
    if (!client) throw new Error(`no client ${clientId}`)
    const { steps = [], ...fields } = setup
    const record: Draft<RecordRow> = {
      id: mock.store.nextId('record'),
      client: clientId,
      created_by: null,
      email: client.email,
      name: { ...client.name },
      reference: client.reference,
      template: null,
      notification: false,
      message: null,
      has_reminders: false,
      is_declaration_required: false,
      steps: [],
      assignees: [],
      perform_token: `test-${clientId}`,
      reviewed_at: null,
      emails: [],
      created_at: NOW,
      updated_at: NOW,
      expired_at: '2026-08-01T12:00:00Z',
      archived_at: null,
      declaration_confirmed_at: null,
      finished_at: null,
      ...(fields as Draft<Partial<RecordRow>>),
    }
    for (const setupStep of steps) {
      const step: Draft<StepRow> = {
        id: mock.store.nextId('step'),
        type: setupStep.type,
        preferences: setupStep.preferences ?? (completePreferences(setupStep.type, MINIMAL_PREFERENCES[setupStep.type]) as Record<string, unknown>),
        cost: setupStep.cost ?? 0,
        completed_at: setupStep.completed_at ?? null,
        check: null,
        document: null,
        form: null,
        review: null,
      }
      if (step.type.startsWith('check.')) {
        const check: CheckRow = {
          id: mock.store.nextId('check'),
          record: record.id,
          step: step.id,
          type: step.type.slice('check.'.length),
          status: 'pending',
          outcome: null,
          response: null,
          allow_replay: false,
          allow_cancel: false,
          requires_consent: false,
          submitted_at: null,
          created_at: record.created_at,
          updated_at: record.created_at,
        }
        Object.assign(check, setupStep.check)
        team.checks.insert(check)
        step.check = check.id
      }
      record.steps.push(step)
    }
    createRecordDocuments(mock.teamContext(team), record)
    return team.records.insert(record)
  })
}

/** Assignee rows for a record (giveRecord's `assignees`), one per user, assigned at NOW. */
export function assigneeRows(mock: TestMock, ...users: number[]): RecordRow['assignees'] {
  return users.map((user) => ({ id: mock.store.nextId('assignee'), user, created_at: NOW }))
}

/**
 * Gives a client an internal form made from a form template of the team (by default its first:
 * every team has the seeded ones), filled in with generated answers when `filledBy` names a team
 * member. Returns the stored row.
 */
export function giveForm(mock: TestMock, team: Team, clientId: number, options: { filledBy?: number; template?: string } = {}): FormRow {
  // A change of the world outside a request, as one write unit, as the product makes one (store/changes.ts).
  return mock.store.changing(() => {
    const template = options.template === undefined ? team.formTemplates.all()[0] : team.formTemplatesByReference.get(options.template)
    if (!template) throw new Error(`team ${team.id} has no form template ${options.template ?? ''}`)
    const ctx = mock.teamContext(team)
    const form = createForm(ctx, template, clientId, { type: 'internal', record: null, step: null })
    return options.filledBy === undefined ? form : completeForm(ctx, form, { created_by: { type: 'team_member', id: options.filledBy } })
  })
}

export interface FileSetup {
  /** The sample file its attachment's bytes are (default: the passport). */
  sample?: SampleName
  original?: string
  type?: FileRow['type']
  source?: FileRow['source']
  source_subtype?: FileRow['source_subtype']
  name?: string
  created_by?: FileRow['created_by']
  is_deletable?: boolean
  expires_at?: string | null
}

/**
 * Gives a client a file whose attachment is a sample file (scanned clean), as a record, form or
 * check would add one; by default the team's own upload (source client). Returns the stored row.
 */
export function giveFile(mock: TestMock, team: Team, clientId: number, setup: FileSetup = {}): FileRow {
  // A change of the world outside a request, as one write unit, as the product makes one (store/changes.ts).
  return mock.store.changing(() => {
    const ctx = mock.teamContext(team)
    const attachment = sampleAttachment(ctx, setup.sample ?? 'passport', setup.original)
    const owner = team.members.find((member) => member.role === 'owner')
    return addFile(ctx, {
      client: clientId,
      type: setup.type ?? 'internal',
      source: setup.source ?? { type: 'client', id: clientId },
      source_subtype: setup.source_subtype ?? null,
      name: setup.name ?? attachment.original,
      attachment: attachment.id,
      created_by: setup.created_by ?? { type: 'team_member', id: owner?.user ?? 0 },
      ...(setup.is_deletable === undefined ? {} : { is_deletable: setup.is_deletable }),
      ...(setup.expires_at === undefined ? {} : { expires_at: setup.expires_at }),
    })
  })
}

/**
 * Gives a client a completed form whose one document field holds the attachments, as a submitted
 * form step leaves it (the field model is the forms resource's; this is the least of it).
 */
export function giveFormWithUploads(mock: TestMock, team: Team, clientId: number, attachments: number[]): FormRow {
  // A change of the world outside a request, as one write unit, as the product makes one (store/changes.ts).
  return mock.store.changing(() => {
    return team.forms.insert({
      id: mock.store.nextId('form'),
      reference: mock.services.random.uuid(),
      type: 'requested',
      client: clientId,
      record: null,
      step: null,
      template: null,
      name: 'Right to work',
      description: null,
      instructions: null,
      fields: [
        { id: 'section', type: 'section', label: '', fields: ['upload'] },
        { id: 'upload', type: 'document', label: 'Your passport', description: 'The photo page.', show_if: null, validation: ['required'], flag: false, value: attachments },
      ],
      version: 1,
      created_at: NOW,
      updated_at: NOW,
      completed_at: NOW,
      archived_at: null,
    })
  })
}
