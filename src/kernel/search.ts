// "Fuzzy, case-insensitive" search (docs/behaviour-notes.md "Lists"): every word of the search must
// appear, case- and accent-insensitively, in one of the searched fields.
// Letters that do not decompose under NFKD, so stripping diacritics leaves them as they are.
const UNDECOMPOSED: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ŧ: 't', ı: 'i', æ: 'ae', œ: 'oe', ß: 'ss', þ: 'th', ð: 'd' }

/** Text that folds by lower-casing alone (the common case, and the fast one): printable ASCII but the two ASCII diacritics, ^ and `. */
const PLAIN = /^[\x20-\x5d\x5f\x61-\x7e]*$/

export function foldText(text: string): string {
  if (PLAIN.test(text)) return text.toLowerCase()
  return text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[øłđħŧıæœßþð]/g, (letter) => UNDECOMPOSED[letter] ?? letter)
}

export function searchWords(search: string): string[] {
  return foldText(search).split(/\s+/).filter(Boolean)
}

export function matchesSearch(words: readonly string[], fields: ReadonlyArray<string | null | undefined>): boolean {
  const folded = fields.filter((field): field is string => Boolean(field)).map(foldText)
  return words.every((word) => folded.some((field) => field.includes(word)))
}
