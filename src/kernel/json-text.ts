// The JSON text of an answer. A page's items are the rows clients ask for again and again (a list
// polled, pages walked), and serialising them is the largest part of a list's cost (GET /clients
// with 25 clients: about a third of the mock's time), so each item's text is kept and used again
// when the item, presented anew, is the same value. That is checked against what the kept text
// says (no version of a row to forget to bump): a hit is an answer byte for byte the same as
// JSON.stringify's.

/** Kept texts, in all, before the cache starts again (all teams share it). */
const MAX_ITEM_TEXT_CHARS = 4 * 1024 * 1024

const OBJECT = Symbol('object')
const ARRAY = Symbol('array')
const END = Symbol('end')
type Token = string | number | boolean | null | typeof OBJECT | typeof ARRAY | typeof END

interface KeptText {
  text: string
  /** What the text says, in the order JSON.stringify walks a value: each object's keys and values between OBJECT and END, each array's length and items after ARRAY. */
  tokens: Token[]
}

const kept = new Map<string, KeptText>()
let keptChars = 0

function tokensOf(value: unknown, tokens: Token[]): void {
  if (value === null || typeof value !== 'object') {
    tokens.push(value as Token)
  } else if (Array.isArray(value)) {
    tokens.push(ARRAY, value.length)
    for (const item of value) tokensOf(item, tokens)
  } else {
    tokens.push(OBJECT)
    for (const key in value) {
      tokens.push(key)
      tokensOf((value as Record<string, unknown>)[key], tokens)
    }
    tokens.push(END)
  }
}

/**
 * Where the value's tokens end if they are `tokens` from `at` on, else -1. Only plain data
 * matches: what JSON.stringify would write otherwise (undefined dropped, NaN as null, toJSON)
 * never equals a parsed text's tokens, so it is written again.
 */
function matchFrom(value: unknown, tokens: Token[], at: number): number {
  if (value === null || typeof value !== 'object') return value === tokens[at] ? at + 1 : -1
  if (Array.isArray(value)) {
    if (tokens[at] !== ARRAY || tokens[at + 1] !== value.length) return -1
    let next = at + 2
    for (const item of value) {
      next = matchFrom(item, tokens, next)
      if (next < 0) return -1
    }
    return next
  }
  if (tokens[at] !== OBJECT || Object.getPrototypeOf(value) !== Object.prototype) return -1
  let next = at + 1
  for (const key in value) {
    if (tokens[next] !== key) return -1
    next = matchFrom((value as Record<string, unknown>)[key], tokens, next + 1)
    if (next < 0) return -1
  }
  return tokens[next] === END ? next + 1 : -1
}

/** An item's JSON: the kept text when the item (by its object and id) is presented as before. */
function itemText(item: unknown): string {
  const { object, id } = (item ?? {}) as { object?: unknown; id?: unknown }
  if (typeof object !== 'string' || (typeof id !== 'number' && typeof id !== 'string')) return JSON.stringify(item) ?? 'null'
  const key = `${object} ${id}`
  const known = kept.get(key)
  if (known !== undefined && matchFrom(item, known.tokens, 0) === known.tokens.length) return known.text
  // A toJSON may write nothing, which an array writes as null.
  const text = (JSON.stringify(item) as string | undefined) ?? 'null'
  const tokens: Token[] = []
  tokensOf(JSON.parse(text), tokens)
  if (known !== undefined) keptChars -= known.text.length
  if (keptChars + text.length > MAX_ITEM_TEXT_CHARS) {
    kept.clear()
    keptChars = 0
  }
  kept.set(key, { text, tokens })
  keptChars += text.length
  return text
}

function itemsText(items: unknown[]): string {
  let text = '['
  for (let index = 0; index < items.length; index++) text += `${index > 0 ? ',' : ''}${itemText(items[index])}`
  return `${text}]`
}

const isPage = (body: unknown): body is { object: 'paginated_list'; data: unknown[] } =>
  typeof body === 'object' &&
  body !== null &&
  Object.getPrototypeOf(body) === Object.prototype &&
  (body as { object?: unknown }).object === 'paginated_list' &&
  Array.isArray((body as { data?: unknown }).data)

/** The answer's JSON text: JSON.stringify's, with a page's items written once while they stay the same. */
export function jsonText(body: unknown): string {
  if (!isPage(body)) return JSON.stringify(body)
  let text = '{'
  for (const [key, value] of Object.entries(body)) {
    const written = key === 'data' ? itemsText(value as unknown[]) : (JSON.stringify(value) as string | undefined)
    if (written === undefined) continue
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${written}`
  }
  return `${text}}`
}
