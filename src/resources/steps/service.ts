// Steps as a record create (POST /records) and POST /steps take them: the contract has already
// checked their shape (step-input.json); here what it cannot check is checked (the team's library
// references), preferences are completed as stored and returned, and each step is priced.
import type { StepTypeJson } from '../../contracts/generated.ts'
import { everyKeyPassed, invalid, type ValidationErrors } from '../../kernel/errors.ts'
import { attributeName } from '../../kernel/validate.ts'
import type { Team } from '../../store/world.ts'
import { stepCost } from './catalogue.ts'
import { stepLibrary, type StepLibrary } from './library.ts'
import { completePreferences, type GivenPreferences } from './preferences.ts'

/** A step of a request, as step-input.json lets it through. */
export interface StepInput {
  type: StepTypeJson
  preferences?: object | null
}

export interface PreparedStep {
  type: StepTypeJson
  /** As the step stores and returns them (step.json). */
  preferences: Record<string, unknown>
  /** Credits (stepCost). */
  cost: number
  /** document.request and document.transfer: the record document to create for the step. */
  document?: { name: string; attachments: number[] }
}

/** What a step needs from the library, or the 422 messages of references it does not hold. */
interface Resolved {
  given: GivenPreferences
  document?: PreparedStep['document']
}

/** Laravel's exists rule: "The selected template is invalid." (docs/behaviour-notes.md "Libraries": a nested key names its last part). */
const notInLibrary = (key: string) => [`The selected ${attributeName(key)} is invalid.`]

function resolve(library: StepLibrary, step: StepInput, given: GivenPreferences, at: string, errors: ValidationErrors): Resolved {
  const fail = (field: string) => {
    errors[`${at}.${field}`] = notInLibrary(`${at}.${field}`)
  }
  const formTemplate = (field: string) => {
    const reference = given[field]
    if (typeof reference === 'string' && !library.formTemplate(reference)) fail(field)
  }
  switch (step.type) {
    case 'document.request': {
      if (typeof given.template !== 'number') return { given, document: { name: given.title as string, attachments: [] } }
      const template = library.documentTemplate(given.template)
      if (!template) {
        fail('template')
        return { given }
      }
      return { given: { title: template.title, instructions: template.instructions }, document: { name: template.title, attachments: [] } }
    }
    case 'document.transfer': {
      if (typeof given.template === 'number') {
        const document = library.libraryDocument(given.template)
        if (!document) {
          fail('template')
          return { given }
        }
        return { given, document: { name: document.name, attachments: [document.attachment] } }
      }
      const attachment = library.attachment(given.attachment as number)
      if (!attachment) {
        fail('attachment')
        return { given }
      }
      return { given, document: { name: given.name as string, attachments: [attachment.id] } }
    }
    case 'form':
      formTemplate('form')
      return { given }
    case 'check.employment_referencing':
      if (given.type === 'automated_references') formTemplate('referee_form')
      return { given }
    case 'check.banking_information':
      formTemplate('custom_form_template_id')
      return { given }
    default:
      return { given }
  }
}

/**
 * The 422 errors of steps' references to the team's library (Laravel's exists rules), keyed like
 * `steps.0.preferences.template`; a step that did not pass the schema is not looked at.
 */
export function stepErrors(
  ctx: { team: Team },
  inputs: readonly StepInput[],
  key = 'steps',
  passed: (key: string) => boolean = everyKeyPassed,
): ValidationErrors {
  const library = stepLibrary(ctx.team)
  const errors: ValidationErrors = {}
  inputs.forEach((step, index) => {
    const at = `${key}.${index}`
    if (passed(at)) resolve(library, step, (step.preferences ?? {}) as GivenPreferences, `${at}.preferences`, errors)
  })
  return errors
}

/**
 * The steps of a request as stored, in order: preferences completed with their defaults, costs,
 * and for document steps the record document to create. References to the team's library that
 * it does not hold are a 422 keyed like `steps.0.preferences.template`, every failing step at
 * once, before anything is kept (the shape was checked by the contract already).
 */
export function prepareSteps<I extends readonly StepInput[]>(
  ctx: { team: Team },
  inputs: I,
  key = 'steps',
  library: StepLibrary = stepLibrary(ctx.team),
): { -readonly [K in keyof I]: PreparedStep } {
  const errors: ValidationErrors = {}
  const resolved = inputs.map((step, index) =>
    resolve(library, step, (step.preferences ?? {}) as GivenPreferences, `${key}.${index}.preferences`, errors),
  )
  if (Object.keys(errors).length > 0) throw invalid(errors)
  const prepared = inputs.map((step, index): PreparedStep => {
    const { given, document } = resolved[index] as Resolved
    const preferences = completePreferences(step.type, given) as Record<string, unknown>
    return { type: step.type, preferences, cost: stepCost(step.type, preferences), ...(document && { document }) }
  })
  // One prepared step per input: a non-empty list stays non-empty for the contract's types.
  return prepared as { -readonly [K in keyof I]: PreparedStep }
}
