export { formAsFileSource, presentForm, type FormObject } from './present.ts'
export type { AnswerField, FormField, FormRow } from './rows.ts'
export { completeForm, createForm, createRecordForms, publishFormsSent, submitForm, type Filler } from './service.ts'
export { formTables } from './tables.ts'
