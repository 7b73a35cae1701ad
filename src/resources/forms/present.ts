import type { FormJson } from '../../contracts/generated.ts'
import type { FileSourcePresenter } from '../files/index.ts'
import type { FormRow } from './rows.ts'
import { onTheWire } from '../../kernel/frozen.ts'

/** client_form in client-scoped answers, form elsewhere (GET /forms, a step's form). */
export type FormObject = 'client_form' | 'form'

/** A form with its client and record collapsed (routes.ts expands them). */
/** A form (sent with a record, or a client form) as the expanded source of a file (files/present.ts). */
export const formAsFileSource: FileSourcePresenter = (ctx, source) => {
  const form = ctx.team.forms.get(source.id)
  return form && presentForm(form, source.type === 'client_form' ? 'client_form' : 'form')
}

export function presentForm<O extends FormObject>(form: FormRow, object: O): FormJson & { object: O } {
  return {
    object,
    id: form.id,
    reference: form.reference,
    type: form.type,
    client: form.client,
    record: form.record,
    name: form.name,
    description: form.description,
    instructions: form.instructions,
    fields: onTheWire<FormJson['fields']>(form.fields),
    version: form.version,
    created_at: form.created_at,
    updated_at: form.updated_at,
    completed_at: form.completed_at,
    archived_at: form.archived_at,
  }
}
