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

/** A value read-only all the way down (what deepFreeze makes, as a type): a row's parts, a shared value. */
export type Frozen<T> = T extends (...args: never[]) => unknown ? T : T extends ReadonlyArray<infer U> ? ReadonlyArray<Frozen<U>> : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T

/** A value writable all the way down: what Frozen takes away, given back (a row's draft in Table.update). */
export type Thawed<T> = T extends (...args: never[]) => unknown ? T : T extends ReadonlyArray<infer U> ? Array<Thawed<U>> : T extends object ? { -readonly [K in keyof T]: Thawed<T[K]> } : T

/**
 * A row's frozen part as its mutable type, for an answer that puts it on the wire as it is (the
 * answer is written out, never changed): the wire types are mutable, the rows are not.
 */
export function onTheWire<T>(value: Frozen<T>): T {
  return value as T
}
