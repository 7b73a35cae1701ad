// What the client sees and gives for each kind of step on the perform page: the fields of its
// HTML form, and how a submitted multipart body becomes the lifecycle's Submission (uploads,
// form answers, a photo ID capture) or the messages that send the page back (422). Uploads are
// taken as POST /attachments takes them (type by content, a virus scan on the clock); a form's
// answers are checked by the forms service, which the engine calls again when the step is completed.
import type { TeamContext } from '../context.ts'
import type { MultipartBody, ReceivedFile } from '../kernel/multipart.ts'
import type { Submission } from '../lifecycle/engine.ts'
import { ACCEPTED_EXTENSIONS, sampleAttachment, SAMPLES, uploadAttachment, uploadedType, type SampleName } from '../resources/attachments/index.ts'
import { formAnswerErrors, isAnswerField, question, type FormAnswers, type FormField, type FormRow } from '../resources/forms/index.ts'
import type { StepRow } from '../resources/records/index.ts'
import type { PhotoIdCapture } from '../resources/checks/index.ts'
import type { RecordDocumentRow } from '../resources/record-documents/index.ts'
import { attr, h, type Html } from './page.ts'
import { richText } from './rich-text.ts'

/** What the client typed or chose, by input name, to show again beside the messages. */
export type Entered = ReadonlyMap<string, string>

/** Messages by input name (the first one shows in the summary and at the input). */
export type Problems = ReadonlyMap<string, string>

export interface StepState {
  entered: Entered
  problems: Problems
}

export const EMPTY_STATE: StepState = { entered: new Map(), problems: new Map() }

/** How the page names a check, by the contract's step type. */
const CHECK_TITLES: Readonly<Record<string, string>> = {
  'check.credit': 'Credit check',
  'check.criminal_record': 'Criminal record check',
  'check.dummy': 'Dummy check',
  'check.hscni_access_ni': 'AccessNI check',
  'check.identity': 'Identity check',
  'check.nhs_esr': 'NHS ESR check',
  'check.banking_information': 'Bank account check',
  'check.photo_id': 'Photo ID',
  'check.employment_referencing': 'Employment history',
  'check.reference': 'References',
  'check.thorntons_onboarding': 'Onboarding check',
  'check.video': 'Video check',
  'check.watchlist': 'Watchlist screening',
}

const DOCUMENT_TYPES = { passport: 'Passport', driving_licence: 'Driving licence', national_id: 'National identity card' } as const
type DocumentType = keyof typeof DOCUMENT_TYPES

/** The sample images a client may pick instead of uploading one (fixtures/samples). */
const DOCUMENT_SAMPLES: ReadonlyArray<{ sample: SampleName; label: string }> = [
  { sample: 'passport', label: 'Sample passport' },
  { sample: 'drivingLicence', label: 'Sample driving licence' },
]
const FACE_SAMPLE = { sample: 'selfie' as const, label: 'Sample photo of a face' }

/** The sample files the perform page shows, by file name. */
export const PERFORM_SAMPLES: ReadonlyMap<string, SampleName> = new Map([...DOCUMENT_SAMPLES, FACE_SAMPLE].map(({ sample }) => [SAMPLES[sample].file, sample]))

/** What the step's page is about: the document's or the form's name, else the check's. */
export function stepTitle(ctx: TeamContext, step: StepRow): string {
  if (step.type === 'form') return (step.form === null ? undefined : ctx.team.formsByReference.get(step.form)?.name) ?? 'Form'
  const document = documentOf(ctx, step)
  if (document) return step.type === 'document.request' ? `Upload: ${document.name}` : document.name
  return CHECK_TITLES[step.type] ?? step.type
}

function documentOf(ctx: TeamContext, step: StepRow): RecordDocumentRow | undefined {
  return step.document === null ? undefined : ctx.team.recordDocuments.get(step.document)
}

function formOf(ctx: TeamContext, step: StepRow): FormRow | undefined {
  return step.form === null ? undefined : ctx.team.formsByReference.get(step.form)
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value : undefined)

// Rendering helpers: every input has a label, and a message is tied to its input (aria-describedby).

const errorId = (name: string) => `${inputId(name)}-error`
/** An HTML id from an input name (names may hold any character a form field id has). */
export const inputId = (name: string) => `in-${name.replace(/[^A-Za-z0-9_-]/g, (char) => `_${char.charCodeAt(0).toString(16)}`)}`

function problemOf(state: StepState, name: string): Html {
  const problem = state.problems.get(name)
  return problem === undefined ? h`` : h`<p class="error" id="${errorId(name)}"><span class="visually-hidden">Error: </span>${problem}</p>`
}

function describedBy(state: StepState, name: string, hint?: string): string | undefined {
  const ids = [hint, state.problems.has(name) ? errorId(name) : undefined].filter((id) => id !== undefined)
  return ids.length > 0 ? ids.join(' ') : undefined
}

function fileInput(state: StepState, name: string, label: string, options: { hint?: string; accept?: string; required?: boolean; markOptional?: boolean }): Html {
  const hintId = options.hint === undefined ? undefined : `${inputId(name)}-hint`
  const marker = options.required ? h` <span class="muted">(required)</span>` : options.markOptional ? h` <span class="muted">(optional)</span>` : ''
  return h`<div class="field">
<label for="${inputId(name)}">${label}${marker}</label>
${options.hint === undefined ? '' : h`<p class="hint" id="${hintId}">${options.hint}</p>`}
${problemOf(state, name)}
<input type="file" id="${inputId(name)}" name="${name}" accept="${options.accept ?? ACCEPTED_EXTENSIONS.map((extension) => `.${extension}`).join(',')}"
 ${options.required ? h`aria-required="true"` : ''} ${state.problems.has(name) ? h`aria-invalid="true"` : ''}${attr('aria-describedby', describedBy(state, name, hintId))}>
</div>`
}

function consentBox(state: StepState, name: string, label: string): Html {
  return h`<div class="field">
${problemOf(state, name)}
<label class="choice" for="${inputId(name)}"><input type="checkbox" id="${inputId(name)}" name="${name}" value="yes" aria-required="true"
 ${state.entered.get(name) === 'yes' ? 'checked' : ''} ${state.problems.has(name) ? h`aria-invalid="true"` : ''}${attr('aria-describedby', describedBy(state, name))}> ${label}</label>
</div>`
}

function radios(state: StepState, name: string, legend: string, options: ReadonlyArray<{ value: string; label: string }>, extra: Html = h``): Html {
  const chosen = state.entered.get(name) ?? options[0]?.value
  return h`<fieldset id="${inputId(name)}" ${state.problems.has(name) ? h`aria-invalid="true"` : ''}${attr('aria-describedby', describedBy(state, name))}>
<legend>${legend}</legend>
${problemOf(state, name)}
${options.map(
  (option, index) =>
    h`<label class="choice" for="${inputId(`${name}-${index}`)}"><input type="radio" id="${inputId(`${name}-${index}`)}" name="${name}" value="${option.value}" ${option.value === chosen ? 'checked' : ''}> ${option.label}</label>`,
)}
${extra}
</fieldset>`
}

/** An image the client uploads, or a sample they pick (each shown beside its choice). */
function imageChoice(state: StepState, base: string, legend: string, samples: ReadonlyArray<{ sample: SampleName; label: string }>, samplesPath: string): Html {
  const name = `${base}_source`
  const options = [...samples.map(({ sample }) => `sample:${sample}`), 'upload']
  const chosen = state.entered.get(name) ?? options[0]
  const option = (value: string, index: number, label: Html) =>
    h`<label class="choice sample" for="${inputId(`${name}-${index}`)}"><input type="radio" id="${inputId(`${name}-${index}`)}" name="${name}" value="${value}" ${value === chosen ? 'checked' : ''}> ${label}</label>`
  return h`<fieldset id="${inputId(name)}" ${state.problems.has(name) ? h`aria-invalid="true"` : ''}${attr('aria-describedby', describedBy(state, name))}>
<legend>${legend}</legend>
${problemOf(state, name)}
${samples.map(({ sample, label }, index) => option(`sample:${sample}`, index, h`<img src="${samplesPath}/${SAMPLES[sample].file}" alt="" width="96" height="60"> ${label} <span class="muted">(${SAMPLES[sample].file})</span>`))}
${option('upload', samples.length, h`Upload my own image`)}
${fileInput(state, `${base}_file`, 'Image to upload (JPG or PNG)', { accept: '.jpg,.jpeg,.png', hint: 'Only when you chose to upload your own image.' })}
</fieldset>`
}

/** What the photo ID step accepts: the step's docs, or every document type (biometric reports name none). */
function acceptedDocuments(step: StepRow): DocumentType[] {
  const docs = Array.isArray(step.preferences.docs) ? (step.preferences.docs as unknown[]) : []
  const accepted = (Object.keys(DOCUMENT_TYPES) as DocumentType[]).filter((type) => docs.includes(type))
  return accepted.length > 0 ? accepted : (Object.keys(DOCUMENT_TYPES) as DocumentType[])
}

const wantsFace = (step: StepRow) => step.preferences.face === true || step.preferences.facial_similarity === true

/** The inputs of a step's form. `paths.samples` serves the sample images, `paths.file` a sent document's file. */
export function stepFields(ctx: TeamContext, step: StepRow, state: StepState, paths: { samples: string; file: (attachment: number) => string }): Html {
  if (step.type === 'check.photo_id') {
    const documents = acceptedDocuments(step)
    return h`<p>Show us an identity document. Choose which one, then upload a clear photo of its front, or use a sample image.</p>
${radios(state, 'document_type', 'Which document will you show?', documents.map((type) => ({ value: type, label: DOCUMENT_TYPES[type] })))}
${imageChoice(state, 'document', 'The front of your document', DOCUMENT_SAMPLES, paths.samples)}
${wantsFace(step) ? imageChoice(state, 'face', 'A photo of your face', [FACE_SAMPLE], paths.samples) : ''}`
  }
  if (step.type === 'document.request') {
    const document = documentOf(ctx, step)
    const instructions = document?.config && 'instructions' in document.config ? text(document.config.instructions) : undefined
    return h`${instructions === undefined ? '' : h`<p>${instructions}</p>`}
${fileInput(state, 'document_file', `Your ${document?.name ?? 'document'}`, { required: true, hint: `Accepted: ${ACCEPTED_EXTENSIONS.join(', ')}; up to 100 MB.` })}`
  }
  if (step.type === 'document.transfer') {
    const document = documentOf(ctx, step)
    const config = document?.config && 'require_return' in document.config ? document.config : undefined
    const files = (document?.attachments ?? []).flatMap((id) => ctx.team.attachments.get(id) ?? [])
    return h`${text(config?.instructions) === undefined ? '' : h`<p>${config?.instructions}</p>`}
<h2>Sent to you</h2>
<ul>${files.map((file) => h`<li><a href="${paths.file(file.id)}" download>${file.original}</a> <span class="muted">(${Math.max(1, Math.round(file.size / 1024))} KB)</span></li>`)}</ul>
${config?.require_confirmation ? consentBox(state, 'confirm', `I have read ${document?.name ?? 'the document'}`) : ''}
${
  config?.require_return
    ? h`${text(config.return_message) === undefined ? '' : h`<p>${config.return_message}</p>`}${fileInput(state, 'return_file', 'Your signed copy', { required: true })}`
    : ''
}`
  }
  if (step.type === 'form') {
    const form = formOf(ctx, step)
    return form ? formFields(ctx, form, state) : h`<p>This form is no longer available.</p>`
  }
  const title = CHECK_TITLES[step.type] ?? step.type
  return h`<p>${ctx.team.row.name} will run a ${title.toLowerCase()} with the details they hold about you. Nothing else is needed from you here.</p>
${consentBox(state, 'consent', `I agree to ${ctx.team.row.name} running this ${title.toLowerCase()}`)}`
}

// Forms: every field type of the form builder, laid out by its sections (which nest). Inputs are
// named field:<id> (a checkbox's options field:<id>:<index>, a document's file file:<id>); a field
// with show_if carries it in data-show-if, which the page's script applies as the client answers.
// Without the script every field shows, and the server ignores the answers of hidden ones.

const fieldName = (field: FormField) => `field:${field.id}`
const optionName = (field: FormField, index: number) => `field:${field.id}:${index}`
const fileName = (field: FormField) => `file:${field.id}`

function showIfAttribute(field: FormField): string | undefined {
  return field.type === 'section' || field.show_if === null ? undefined : JSON.stringify(field.show_if)
}

function answerField(ctx: TeamContext, field: Extract<FormField, { value: unknown }>, state: StepState): Html {
  const name = fieldName(field)
  const label = question(ctx, field)
  const required = field.validation !== null
  const marker = required ? h` <span class="muted">(required)</span>` : h` <span class="muted">(optional)</span>`
  const invalid = state.problems.has(name) ? h`aria-invalid="true"` : ''
  switch (field.type) {
    case 'text':
      return h`<label for="${inputId(name)}">${label}${marker}</label>${problemOf(state, name)}
<input type="text" id="${inputId(name)}" name="${name}" value="${state.entered.get(name) ?? ''}" ${required ? h`aria-required="true"` : ''} ${invalid}${attr('aria-describedby', describedBy(state, name))}>`
    case 'textarea':
      return h`<label for="${inputId(name)}">${label}${marker}</label>${problemOf(state, name)}
<textarea id="${inputId(name)}" name="${name}" ${required ? h`aria-required="true"` : ''} ${invalid}${attr('aria-describedby', describedBy(state, name))}>${state.entered.get(name) ?? ''}</textarea>`
    case 'radio':
    case 'checkbox': {
      const options = field.label.options
      const ticked = (index: number) =>
        field.type === 'radio' ? state.entered.get(name) === options[index] : state.entered.get(optionName(field, index)) === options[index]
      return h`<fieldset id="${inputId(name)}" ${invalid}${attr('aria-describedby', describedBy(state, name))}>
<legend>${label}${marker}</legend>${problemOf(state, name)}
${options.map((option, index) => {
  const id = inputId(`${name}-${index}`)
  return h`<label class="choice" for="${id}"><input type="${field.type}" id="${id}" name="${field.type === 'radio' ? name : optionName(field, index)}" value="${option}" ${ticked(index) ? 'checked' : ''}> ${option}</label>`
})}
</fieldset>`
    }
    case 'document': {
      const description = 'description' in field ? text(field.description) : ctx.team.documentTemplates.get(field.template_id)?.description
      return fileInput(state, fileName(field), label, { required, markOptional: true, ...(description !== undefined && { hint: description }) })
    }
  }
}

function formFields(ctx: TeamContext, form: FormRow, state: StepState): Html {
  const byId = new Map(form.fields.map((field) => [field.id, field]))
  const held = new Set(form.fields.flatMap((field) => (field.type === 'section' ? field.fields : [])))
  const laidOut = new Set<string>()
  const item = (field: FormField, depth: number): Html => {
    if (field.type === 'section') return section(field, depth + 1)
    const content =
      field.type === 'heading'
        ? depth <= 1
          ? h`<h3>${field.label}</h3>`
          : h`<h4>${field.label}</h4>`
        : field.type === 'rich_text'
          ? richText(field.json_content)
          : answerField(ctx, field, state)
    return h`<div class="field" data-field="${field.id}"${attr('data-show-if', showIfAttribute(field))}>${content}</div>`
  }
  const section = (field: Extract<FormField, { type: 'section' }>, depth: number): Html => {
    if (laidOut.has(field.id)) return h``
    laidOut.add(field.id)
    const children = field.fields.flatMap((id) => byId.get(id) ?? []).map((child) => item(child, depth))
    if (field.label === '') return h`${children}`
    const headingId = `section-${inputId(field.id)}`
    return h`<section class="form-section" aria-labelledby="${headingId}">${depth <= 1 ? h`<h2 id="${headingId}">${field.label}</h2>` : h`<h3 id="${headingId}">${field.label}</h3>`}${children}</section>`
  }
  const roots = form.fields.filter((field): field is Extract<FormField, { type: 'section' }> => field.type === 'section' && !held.has(field.id))
  return h`${form.description === null ? '' : h`<p class="muted">${form.description}</p>`}
${form.instructions === null ? '' : form.instructions.split('\n\n').map((paragraph) => h`<p class="instructions">${paragraph}</p>`)}
${roots.map((root) => section(root, 0))}`
}

// Reading a submission.

/** What the client gave, ready for the engine, or what to tell them. */
export type Reading = { ok: true; submission: Submission; uploads: number[] } | { ok: false; state: StepState }

/** The names of the file inputs a step's form has. */
export function fileFields(ctx: TeamContext, step: StepRow): Set<string> {
  if (step.type === 'check.photo_id') return new Set(['document_file', 'face_file'])
  if (step.type === 'document.request') return new Set(['document_file'])
  if (step.type === 'document.transfer') return new Set(['return_file'])
  const form = step.type === 'form' ? formOf(ctx, step) : undefined
  return new Set((form?.fields ?? []).filter((field) => field.type === 'document').map(fileName))
}

const TYPE_PROBLEM = `The file must be one of these types: ${ACCEPTED_EXTENSIONS.join(', ')}.`
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png'])

/** Every plain field as entered, to show again. */
function enteredOf(body: MultipartBody): Map<string, string> {
  return new Map(body.fields)
}

/** An image for a photo ID capture: a sample (made an attachment now) or the upload; undefined with a problem. */
function imageOf(body: MultipartBody, base: string, problems: Map<string, string>): { sample: SampleName } | { file: ReceivedFile } | null | undefined {
  const source = body.fields.get(`${base}_source`)
  if (source === undefined) return null
  if (source.startsWith('sample:')) {
    const sample = source.slice('sample:'.length)
    if (Object.hasOwn(SAMPLES, sample)) return { sample: sample as SampleName }
    problems.set(`${base}_source`, 'Choose a sample image or upload your own.')
    return undefined
  }
  const file = body.files.get(`${base}_file`)
  if (!file) problems.set(`${base}_file`, 'Choose the image to upload.')
  else if (!IMAGE_TYPES.has(uploadedType(file) ?? '')) problems.set(`${base}_file`, 'The image must be a JPG or PNG file.')
  else return { file }
  return undefined
}

/**
 * Reads what the client submitted for the step. Files become attachments (as POST /attachments
 * makes them) only once everything passes; `uploads` lists them, for the caller to release those
 * the step did not keep.
 */
export function readSubmission(ctx: TeamContext, step: StepRow, body: MultipartBody): Reading {
  const problems = new Map<string, string>()
  const entered = enteredOf(body)
  const refuse = (): Reading => ({ ok: false, state: { entered, problems } })
  const uploads: number[] = []
  const upload = (file: ReceivedFile) => {
    const attachment = uploadAttachment(ctx, file)
    uploads.push(attachment.id)
    return attachment.id
  }
  const requireFile = (name: string, missing: string): ReceivedFile | undefined => {
    const file = body.files.get(name)
    if (!file) problems.set(name, missing)
    else if (uploadedType(file) === undefined) problems.set(name, TYPE_PROBLEM)
    else return file
    return undefined
  }

  if (step.type === 'check.photo_id') {
    const documentType = body.fields.get('document_type') as DocumentType | undefined
    if (documentType === undefined || !acceptedDocuments(step).includes(documentType)) problems.set('document_type', 'Choose the document you will show.')
    const document = imageOf(body, 'document', problems)
    const face = wantsFace(step) ? imageOf(body, 'face', problems) : null
    if (document === null) problems.set('document_source', 'Choose a sample image or upload your own.')
    if (face === null && wantsFace(step)) problems.set('face_source', 'Choose a sample image or upload your own.')
    if (problems.size > 0 || documentType === undefined || !document || face === undefined) return refuse()
    const captured = (image: { sample: SampleName } | { file: ReceivedFile } | null) =>
      image === null ? null : 'file' in image ? upload(image.file) : sampleAttachment(ctx, image.sample).id
    const capture: PhotoIdCapture = { document_type: documentType, document: captured(document), face: captured(face) }
    return { ok: true, submission: { capture }, uploads }
  }
  if (step.type === 'document.request') {
    const file = requireFile('document_file', 'Choose the file to upload.')
    if (!file) return refuse()
    return { ok: true, submission: { uploads: [upload(file)] }, uploads }
  }
  if (step.type === 'document.transfer') {
    const document = documentOf(ctx, step)
    const config = document?.config && 'require_return' in document.config ? document.config : undefined
    if (config?.require_confirmation && body.fields.get('confirm') !== 'yes') problems.set('confirm', 'Confirm that you have read the document.')
    const file = config?.require_return ? requireFile('return_file', 'Choose your signed copy to upload.') : undefined
    if (problems.size > 0) return refuse()
    return { ok: true, submission: file ? { uploads: [upload(file)] } : {}, uploads }
  }
  if (step.type === 'form') {
    const form = formOf(ctx, step)
    const answers = form ? readForm(ctx, form, body, problems, upload) : undefined
    if (problems.size > 0) return refuse()
    return { ok: true, submission: answers ? { answers } : {}, uploads }
  }
  if (body.fields.get('consent') !== 'yes') {
    problems.set('consent', 'Tick the box to agree, or leave this page.')
    return refuse()
  }
  return { ok: true, submission: {}, uploads }
}

/** The form's answers, its files uploaded once every answer passes; undefined with the problems found. */
function readForm(ctx: TeamContext, form: FormRow, body: MultipartBody, problems: Map<string, string>, upload: (file: ReceivedFile) => number): FormAnswers | undefined {
  const answers = new Map<string, string | string[] | number[]>()
  const files = new Map<string, ReceivedFile>()
  for (const field of form.fields) {
    if (!isAnswerField(field)) continue
    if (field.type === 'checkbox') {
      const ticked = field.label.options.filter((_, index) => body.fields.has(optionName(field, index)))
      if (ticked.length > 0) answers.set(field.id, ticked)
    } else if (field.type === 'document') {
      const file = body.files.get(fileName(field))
      if (file === undefined) continue
      if (uploadedType(file) === undefined) problems.set(fileName(field), TYPE_PROBLEM)
      // A chosen file counts as an answer while the answers are checked; it is uploaded after.
      files.set(field.id, file)
      answers.set(field.id, [0])
    } else {
      const value = body.fields.get(fieldName(field))
      if (value !== undefined) answers.set(field.id, value)
    }
  }
  const byId = new Map(form.fields.map((field) => [field.id, field]))
  for (const [id, messages] of Object.entries(formAnswerErrors(ctx, form, answers))) {
    const field = byId.get(id)
    const name = field?.type === 'document' ? fileName(field) : field && fieldName(field)
    if (name !== undefined && !problems.has(name)) problems.set(name, messages[0] ?? 'Check this answer.')
  }
  if (problems.size > 0) return undefined
  for (const [id, file] of files) answers.set(id, [upload(file)])
  return answers
}
