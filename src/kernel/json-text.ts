// The JSON of an answer. A page's items are the rows clients ask for again and again (a list
// polled, pages walked), and serialising them is the largest part of a list's cost (GET /clients
// with 25 clients: about a third of the mock's time), so each item's JSON is kept, as UTF-8 bytes,
// and used again when the item, presented anew, is the same value. That is checked against what
// the kept JSON says (no version of a row to forget to bump): a hit is an answer byte for byte the
// UTF-8 of JSON.stringify's text. A page is answered as bytes: written as a text, its 14 KB (25
// clients) were measured for their length and encoded again on every request.

/** Kept bytes, in all, before the cache starts again (all teams share it). */
const MAX_KEPT_BYTES = 4 * 1024 * 1024

const OBJECT = Symbol('object')
const ARRAY = Symbol('array')
const END = Symbol('end')
type Token = string | number | boolean | null | typeof OBJECT | typeof ARRAY | typeof END

interface KeptJson {
  bytes: Buffer
  /** What the JSON says, in the order JSON.stringify walks a value: each object's keys and values between OBJECT and END, each array's length and items after ARRAY. */
  tokens: Token[]
}

/** By the item's `object`, then its `id`: no key string to make and hash for every item. */
const kept = new Map<string, Map<number | string, KeptJson>>()
let keptBytes = 0

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
 * never equals a parsed text's tokens, so it is written again. Called for objects and arrays; the
 * values in them that are neither are compared in the loop (a call each cost a third of the time).
 */
function matchFrom(value: object, tokens: Token[], at: number): number {
  let next: number
  if (Array.isArray(value)) {
    if (tokens[at] !== ARRAY || tokens[at + 1] !== value.length) return -1
    next = at + 2
    for (const item of value as unknown[]) {
      if (item === null || typeof item !== 'object') {
        if (item !== tokens[next]) return -1
        next++
      } else if ((next = matchFrom(item, tokens, next)) < 0) return -1
    }
    return next
  }
  if (tokens[at] !== OBJECT || Object.getPrototypeOf(value) !== Object.prototype) return -1
  next = at + 1
  for (const key in value) {
    if (tokens[next] !== key) return -1
    const item = (value as Record<string, unknown>)[key]
    if (item === null || typeof item !== 'object') {
      if (item !== tokens[next + 1]) return -1
      next += 2
    } else if ((next = matchFrom(item, tokens, next + 1)) < 0) return -1
  }
  return tokens[next] === END ? next + 1 : -1
}

/** Whether a value is an item: an object named by its `object` and its `id`. */
const isItem = (body: unknown) => {
  const { object, id } = (body ?? {}) as { object?: unknown; id?: unknown }
  return typeof object === 'string' && (typeof id === 'number' || typeof id === 'string')
}

/** An item's JSON text: a toJSON may write nothing, which an array writes as null. */
const itemText = (item: unknown) => (JSON.stringify(item) as string | undefined) ?? 'null'

/** An item's JSON as UTF-8: the kept bytes when the item (by its object and id) is presented as before. */
function itemBytes(item: unknown): Buffer {
  if (!isItem(item)) return Buffer.from(itemText(item))
  const { object, id } = item as { object: string; id: number | string }
  const known = kept.get(object)?.get(id)
  if (known !== undefined && matchFrom(item as object, known.tokens, 0) === known.tokens.length) return known.bytes
  const text = itemText(item)
  const bytes = Buffer.from(text)
  const tokens: Token[] = []
  tokensOf(JSON.parse(text), tokens)
  if (known !== undefined) keptBytes -= known.bytes.length
  if (keptBytes + bytes.length > MAX_KEPT_BYTES) {
    kept.clear()
    keptBytes = 0
  }
  let ofObject = kept.get(object)
  if (ofObject === undefined) kept.set(object, (ofObject = new Map()))
  ofObject.set(id, { bytes, tokens })
  keptBytes += bytes.length
  return bytes
}

const COMMA = Buffer.from(',')

interface KeptPage {
  items: Buffer[]
  bytes: Buffer
}

/**
 * Pages answered, by what they say around their items: the same items (the same kept bytes) again
 * are the same answer, neither allocated nor copied again (a copy of 25 clients cost a tenth of
 * the list).
 */
const keptPages = new Map<string, KeptPage>()
let keptPageBytes = 0

const isPage = (body: unknown): body is { object: 'paginated_list'; data: unknown[] } =>
  typeof body === 'object' &&
  body !== null &&
  Object.getPrototypeOf(body) === Object.prototype &&
  (body as { object?: unknown }).object === 'paginated_list' &&
  Array.isArray((body as { data?: unknown }).data)

const sameItems = (earlier: Buffer[], items: Buffer[]) => earlier.length === items.length && earlier.every((item, index) => item === items[index])

function pageBytes(head: string, items: Buffer[], tail: string): Buffer {
  const parts: Buffer[] = [Buffer.from(head)]
  for (let index = 0; index < items.length; index++) {
    if (index > 0) parts.push(COMMA)
    parts.push(items[index] as Buffer)
  }
  parts.push(Buffer.from(tail))
  return Buffer.concat(parts)
}

/**
 * The answer's JSON: a page's UTF-8 bytes, with its items' kept while they stay the same; an item
 * (an object with an id) read again (`again`: a GET's answer) the same way; anything else, and a
 * write's answer (new every time: keeping it would only cost), JSON.stringify's text.
 */
export function jsonBody(body: unknown, again = false): string | Buffer {
  if (!isPage(body)) return again && isItem(body) ? itemBytes(body) : JSON.stringify(body)
  // The page's text before its items and after them, and its items.
  let head = '{'
  let tail = ''
  let items: Buffer[] = []
  for (const key in body) {
    const separator = head.length > 1 ? ',' : ''
    const value = body[key as keyof typeof body]
    if (key === 'data') {
      head += `${separator}"data":[`
      items = (value as unknown[]).map(itemBytes)
      tail = ']'
      continue
    }
    const json = JSON.stringify(value) as string | undefined
    if (json === undefined) continue
    if (tail === '') head += `${separator}${JSON.stringify(key)}:${json}`
    else tail += `,${JSON.stringify(key)}:${json}`
  }
  tail += '}'
  const around = `${head}\u0000${tail}`
  const known = keptPages.get(around)
  if (known !== undefined && sameItems(known.items, items)) return known.bytes
  const bytes = pageBytes(head, items, tail)
  if (known !== undefined) keptPageBytes -= known.bytes.length
  if (keptPageBytes + bytes.length > MAX_KEPT_BYTES) {
    keptPages.clear()
    keptPageBytes = 0
  }
  keptPages.set(around, { items, bytes })
  keptPageBytes += bytes.length
  return bytes
}
