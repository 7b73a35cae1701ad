// Values shared by many rows (a seeded step's preferences, a clear breakdown group of a photo ID
// response) are frozen all the way down: changing one in place would change every row that holds it.

export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value
  for (const child of Object.values(value)) deepFreeze(child)
  return Object.freeze(value)
}
