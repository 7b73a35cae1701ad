// What steps refer to in the team's libraries: document templates, library documents, attachments
// and form templates. Those resources arrive with a later issue and have no tables yet, so today
// nothing is found and every reference is a 422. When a table comes, its lookup goes here, and
// only here: prepareSteps asks nothing else.
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
  void team
  return {
    documentTemplate: () => undefined,
    libraryDocument: () => undefined,
    attachment: () => undefined,
    formTemplate: () => undefined,
  }
}
