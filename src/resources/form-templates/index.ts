export { presentFormTemplate } from './present.ts'
export type { FormTemplateRow, TemplateField } from './rows.ts'
export { INPUT_TYPES, templateFields } from './service.ts'
export { formTemplateTables } from './tables.ts'
