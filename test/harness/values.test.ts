// The scenario format's matchers, dot paths and {{variables}}.
import { describe, expect, it } from 'vitest'
import { interpolate, mismatch, valueAt, VariableError } from '../../src/harness/values.ts'

const body = {
  id: 12,
  name: { first_name: 'Ada', last_name: 'Lovelace' },
  data: [{ id: 1, status: 'pending' }, { id: 2, status: 'clear' }],
  'name.first_name': ['The first name field is required.'],
  links: null,
}
const at = (path: string) => valueAt(body, path)

describe('dot paths', () => {
  it('walk objects and arrays, take keys that hold dots, and tell absent from null', () => {
    expect(at('name.first_name')).toEqual({ found: true, value: ['The first name field is required.'] })
    expect(at('name.last_name')).toEqual({ found: true, value: 'Lovelace' })
    expect(at('data.1.status')).toEqual({ found: true, value: 'clear' })
    expect(at('links')).toEqual({ found: true, value: null })
    expect(at('links.next')).toEqual({ found: false, value: undefined })
    expect(at('data.5')).toEqual({ found: false, value: undefined })
    expect(at('$')).toEqual({ found: true, value: body })
  })
})

describe('matchers', () => {
  it('compare scalars, null and arrays for equality', () => {
    expect(mismatch(at('id'), 12)).toBeUndefined()
    expect(mismatch(at('id'), '12')).toBe('expected "12", got 12')
    expect(mismatch(at('links'), null)).toBeUndefined()
    expect(mismatch(at('case'), null)).toBe('expected null, got nothing (absent)')
    expect(mismatch(at('name.first_name'), ['The first name field is required.'])).toBeUndefined()
  })

  it('equals, subset and contains', () => {
    expect(mismatch(at('name'), { equals: { first_name: 'Ada', last_name: 'Lovelace' } })).toBeUndefined()
    expect(mismatch(at('name'), { equals: { first_name: 'Ada' } })).toBe('expected {"first_name":"Ada"}, got {"first_name":"Ada","last_name":"Lovelace"}')
    expect(mismatch(at('$'), { subset: { id: 12, name: { first_name: 'Ada' }, data: [{ id: 1 }] } })).toBeUndefined()
    expect(mismatch(at('$'), { subset: { name: { first_name: 'Bob' } } })).toMatch(/^expected a superset of \{"name":\{"first_name":"Bob"\}\}, got /)
    expect(mismatch(at('data'), { subset: [{ id: 1 }, { id: 2 }, { id: 3 }] })).toMatch(/^expected a superset of/)
    expect(mismatch(at('data'), { contains: { status: 'clear' } })).toBeUndefined()
    expect(mismatch(at('data'), { contains: { status: 'rejected' } })).toBe('expected an array containing {"status":"rejected"}, got [{"id":1,"status":"pending"},{"id":2,"status":"clear"}]')
  })

  it('type, pattern, length, oneOf, gte and lte', () => {
    expect(mismatch(at('id'), { type: 'integer', gte: 12, lte: 12 })).toBeUndefined()
    expect(mismatch(at('id'), { type: ['string', 'null'] })).toBe('expected type string or null, got 12')
    expect(mismatch(at('name.last_name'), { pattern: '^Love' })).toBeUndefined()
    expect(mismatch(at('name.last_name'), { pattern: '^\\d+$' })).toBe('expected a string matching /^\\d+$/, got "Lovelace"')
    expect(mismatch(at('data'), { length: 2 })).toBeUndefined()
    expect(mismatch(at('data'), { length: 3 })).toBe('expected length 3 (length 2), got [{"id":1,"status":"pending"},{"id":2,"status":"clear"}]')
    expect(mismatch(at('name.last_name'), { length: { min: 1, max: 5 } })).toBe('expected length at least 1 and at most 5 (length 8), got "Lovelace"')
    expect(mismatch(at('data.0.status'), { oneOf: ['pending', 'clear'] })).toBeUndefined()
    expect(mismatch(at('data.0.status'), { oneOf: ['clear'] })).toBe('expected one of ["clear"], got "pending"')
    expect(mismatch(at('id'), { gte: 13 })).toBe('expected a number >= 13, got 12')
    expect(mismatch(at('id'), { lte: 11 })).toBe('expected a number <= 11, got 12')
  })

  it('absent and not', () => {
    expect(mismatch(at('case'), { absent: true })).toBeUndefined()
    expect(mismatch(at('links'), { absent: true })).toBe('expected absent, got null')
    expect(mismatch(at('links'), { absent: false })).toBeUndefined()
    expect(mismatch(at('case'), { absent: false })).toBe('expected present, got nothing (absent)')
    expect(mismatch(at('id'), { not: 13 })).toBeUndefined()
    expect(mismatch(at('id'), { not: { type: 'integer' } })).toBe('expected not {"type":"integer"}, got 12')
    expect(mismatch(at('case'), { type: 'object' })).toBe('expected type object, got nothing (absent)')
  })
})

describe('interpolation', () => {
  const variables = { 'run.id': 'ab12cd', clientId: 12, client: { name: { first_name: 'Ada' } }, users: { 'read-only': { id: 7 } } }

  it('keeps the type of a whole {{name}}, writes text elsewhere, and walks into objects', () => {
    expect(interpolate({ id: '{{clientId}}', email: 'ada+{{run.id}}@example.com', list: ['{{client}}'] }, variables)).toEqual({
      id: 12,
      email: 'ada+ab12cd@example.com',
      list: [{ name: { first_name: 'Ada' } }],
    })
    expect(interpolate('{{client.name.first_name}} #{{ clientId }}', variables)).toBe('Ada #12')
    expect(interpolate('{{users.read-only.id}}', variables)).toBe(7)
  })

  it('names an unknown variable', () => {
    expect(() => interpolate({ id: '{{recordId}}' }, variables)).toThrow(new VariableError('recordId'))
    expect(() => interpolate('{{client.name.last_name}}', variables)).toThrow('unknown variable {{client.name.last_name}}')
  })
})
