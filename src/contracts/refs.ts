// Contract schemas refer to each other by relative $refs ('common.json#/$defs/id'). Documents
// generated from them (the served OpenAPI document, the TypeScript wire types) gather every schema
// into one document, so each $ref is rewritten to point inside it.

export interface RelinkOptions {
  /** Keywords to leave out of the copy (e.g. title, so generated type names come from our keys). */
  drop?: readonly string[]
  /**
   * Rewrite a $ref that has sibling keywords as allOf [$ref, siblings]: what it means in JSON Schema
   * 2020-12, for tools that otherwise merge the siblings into the referenced schema.
   */
  siblingsToAllOf?: boolean
}

/** Keywords whose value maps names to schemas: their keys are names, never keywords. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas'])

/** A copy of a schema with each $ref (resolved against `base`) replaced by `target(url)`; $id and $schema dropped. */
export function relinkRefs(value: unknown, base: string, target: (url: URL) => string, options: RelinkOptions = {}): unknown {
  return relink(value, base, target, options, false)
}

function relink(value: unknown, base: string, target: (url: URL) => string, options: RelinkOptions, names: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => relink(item, base, target, options, false))
  if (value === null || typeof value !== 'object') return value
  const result: Record<string, unknown> = {}
  if (names) {
    for (const [name, schema] of Object.entries(value)) result[name] = relink(schema, base, target, options, false)
    return result
  }
  let ref: string | undefined
  for (const [key, child] of Object.entries(value)) {
    if (key === '$id' || key === '$schema' || options.drop?.includes(key)) continue
    if (key === '$ref' && typeof child === 'string') {
      ref = target(new URL(child, base))
      continue
    }
    result[key] = relink(child, base, target, options, SCHEMA_MAPS.has(key))
  }
  if (ref === undefined) return result
  const siblings = Object.keys(result).filter((key) => key !== 'description')
  if (options.siblingsToAllOf && siblings.length > 0) return { allOf: [{ $ref: ref }, result] }
  return { $ref: ref, ...result }
}
