import type { AppRoutes } from '../../context.ts'
import { paginate } from '../../kernel/pagination.ts'
import { STEP_CATALOGUE } from './catalogue.ts'
import { presentAvailableStep, presentValidatedSteps } from './present.ts'
import { prepareSteps, stepErrors } from './service.ts'

export function stepsRoutes(routes: AppRoutes): void {
  // Every role may read the catalogue; read-only members get 403 on POST /steps from the gate.
  routes.handle('steps.list', ({ query, url }) => paginate(STEP_CATALOGUE, query, url, presentAvailableStep))

  // Validates and prices the steps exactly as a record create would; nothing is kept or debited.
  routes.handle('steps.validate', { rules: ({ ctx, body, passed }) => (Array.isArray(body.steps) ? stepErrors(ctx, body.steps, 'steps', passed) : {}) }, ({ ctx, body }) => presentValidatedSteps(prepareSteps(ctx, body.steps)))
}
