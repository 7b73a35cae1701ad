// "Fuzzy, case-insensitive" search as the spec describes it: every word of the search must
// appear, case- and accent-insensitively, in one of the searched fields.
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{Diacritic}/gu, '').toLowerCase()
}

export function searchWords(search: string): string[] {
  return foldText(search).split(/\s+/).filter(Boolean)
}

export function matchesSearch(words: readonly string[], fields: ReadonlyArray<string | null | undefined>): boolean {
  const folded = fields.filter((field): field is string => Boolean(field)).map(foldText)
  return words.every((word) => folded.some((field) => field.includes(word)))
}
