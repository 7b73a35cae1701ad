// expand: which expandable properties of the answer are full objects. The contract already
// checked the values against the endpoint's allowed set (FACTS.md: one level only).
export type Expand = ReadonlySet<string>

export const NO_EXPAND: Expand = new Set()

export function expandOf(query: { expand?: unknown }): Expand {
  return Array.isArray(query.expand) ? new Set(query.expand as string[]) : NO_EXPAND
}
