// Values shared by many rows (a seeded step's preferences, a clear breakdown group of a photo ID
// response) are frozen all the way down: changing one in place would change every row that holds it.
// A value a row keeps for itself is a copy that shares nothing (copyJson).

export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  for (const child of Object.values(value)) deepFreeze(child)
  return Object.freeze(value)
}

/**
 * A copy of a JSON value (a parsed body, a row's part) that shares nothing with it: what a row
 * keeps of what it was given. A tenth of structuredClone's cost, which a seed pays per step.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value
  if (Array.isArray(value)) return value.map(copyJson) as T
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(value)) copy[key] = copyJson((value as Record<string, unknown>)[key])
  return copy as T
}
