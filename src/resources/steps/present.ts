import type { AvailableStepJson, ValidatedStepsJson } from '../../contracts/generated.ts'
import type { AvailableStep } from './catalogue.ts'
import type { PreparedStep } from './service.ts'

export function presentAvailableStep(step: AvailableStep): AvailableStepJson {
  const [first, ...more] = step.costs
  return { object: 'available_step', type: step.type, costs: [first, ...more] }
}

const validated = (step: PreparedStep) => ({ object: 'validated_step' as const, type: step.type, cost: step.cost })

/** POST /steps: each step's type and cost, in request order. */
export function presentValidatedSteps(steps: readonly [PreparedStep, ...PreparedStep[]]): ValidatedStepsJson {
  const [first, ...more] = steps
  return { object: 'validated_steps', steps: [validated(first), ...more.map(validated)] }
}
