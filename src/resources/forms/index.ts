export { formAsFileSource, presentForm, type FormObject } from './present.ts'
export type { AnswerField, FormField, FormRow } from './rows.ts'
export { completeForm, createForm, createRecordForms, documentName, formAnswerErrors, isAnswerField, publishFormsSent, question, shown, submitForm, type Filler, type FormAnswers } from './service.ts'
export { formTables } from './tables.ts'
