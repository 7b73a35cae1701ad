// What steps refer to in the team's libraries: document templates, library documents, attachments
// and form templates. Every lookup a step makes goes here, and only here: prepareSteps asks
// nothing else. Disabled templates and documents cannot be named by a new step.
import type { Team } from '../../store/world.ts'

export interface StepLibrary {
  /** A document template (GET /templates/documents): a document.request naming it asks for its name (title) with its content (instructions). */
  documentTemplate(id: number): { title: string; instructions: string } | undefined
  /** A library document (GET /documents): a document.transfer naming it as template sends its attachment under its name. */
  libraryDocument(id: number): { name: string; attachment: number } | undefined
  /** An attachment of the team (POST /attachments): a new document a document.transfer sends. */
  attachment(id: number): { id: number } | undefined
  /** A form template of the team by reference: a form step's form, a referee form, a banking check's custom form. */
  formTemplate(reference: string): { reference: string } | undefined
}

/** The team's library as steps see it. */
export function stepLibrary(team: Team): StepLibrary {
  return {
    documentTemplate: (id) => {
      const template = team.documentTemplates.get(id)
      return template?.is_enabled ? { title: template.name, instructions: template.content } : undefined
    },
    libraryDocument: (id) => {
      const document = team.libraryDocuments.get(id)
      return document?.is_enabled ? { name: document.name, attachment: document.attachment } : undefined
    },
    attachment: (id) => {
      const attachment = team.attachments.get(id)
      return attachment && attachment.redacted_at === null ? { id: attachment.id } : undefined
    },
    formTemplate: (reference) => {
      const template = team.formTemplatesByReference.get(reference)
      return template?.is_enabled && template.archived_at === null ? { reference: template.reference } : undefined
    },
  }
}
