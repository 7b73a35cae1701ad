// Placeholder until the steps module lands (issue6-steps branch): preferences as given, no cost.
import type { RequestContext } from '../../context.ts'
import type { StepInputJson, StepTypeJson } from '../../contracts/generated.ts'

export interface PreparedStep {
  type: StepTypeJson
  preferences: Record<string, unknown>
  cost: number
}

export function prepareSteps(_ctx: RequestContext, inputs: StepInputJson[], _key = 'steps'): PreparedStep[] {
  return inputs.map((input) => ({ type: input.type, preferences: input.preferences ?? {}, cost: 0 }))
}
