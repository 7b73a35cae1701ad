export { STEP_CATALOGUE, stepCost, type AvailableStep } from './catalogue.ts'
export { stepLibrary, type StepLibrary } from './library.ts'
export { completePreferences, OPEN_TYPES, type PreferencesOf } from './preferences.ts'
export { prepareSteps, stepErrors, type PreparedStep, type StepInput } from './service.ts'
