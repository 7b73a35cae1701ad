// The Laravel-style message catalogue of src/kernel/validate.ts, driven by the compiled contract
// validators, plus the query-string reader and the JSON body parser.
import { describe, expect, it } from 'vitest'
import type { ValidateFunction } from 'ajv'
import { HttpError } from '../../src/kernel/errors.ts'
import { normalizeInput, queryShapeOf, readQuery, validateBody } from '../../src/contracts/request.ts'
import { checkBody, checkQuery, mergeErrors, parseJsonBody, passedSchema, toValidationErrors } from '../../src/kernel/validate.ts'
import { contracts } from '../support/contracts.ts'

/** Validates a copy of the input and returns the 422 body toValidationErrors makes of it. */
function errorsOf(validate: ValidateFunction, input: unknown): Record<string, string[]> {
  const data = structuredClone(input)
  expect(validate(data), `expected ${JSON.stringify(input).slice(0, 200)} to be invalid`).toBe(false)
  return toValidationErrors(validate.errors, data)
}

function body(operationId: string): ValidateFunction {
  const validate = contracts.bodyValidator(operationId)
  if (!validate) throw new Error(`${operationId} takes no body`)
  return validate
}

const query = (operationId: string) => contracts.queryValidator(operationId)

/** A schema outside contracts/, for message kinds no contract uses (yet). */
function schema(name: string, properties: Record<string, unknown>): ValidateFunction {
  return contracts.compile({ $id: `https://contracts.ivs-mock.local/test/validate/${name}.json`, type: 'object', properties })
}

/** The error a function throws (fails the test when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected the call to throw')
}

const VALID_CLIENT = { name: { first_name: 'Ada', last_name: 'Lovelace' }, email: 'ada@example.com' }

describe('toValidationErrors: the message catalogue', () => {
  it('is empty for no errors', () => {
    expect(toValidationErrors(null, {})).toEqual({})
    expect(toValidationErrors(undefined, {})).toEqual({})
    expect(toValidationErrors([], {})).toEqual({})
  })

  describe('required', () => {
    it('names each missing top-level property', () => {
      expect(errorsOf(body('clients.create'), {})).toEqual({
        name: ['The name field is required.'],
        email: ['The email field is required.'],
      })
    })

    it('keys a missing nested property by its dot path, naming only its last part', () => {
      expect(errorsOf(body('clients.create'), { name: {}, email: 'ada@example.com' })).toEqual({
        'name.first_name': ['The first name field is required.'],
        'name.last_name': ['The last name field is required.'],
      })
    })

    it('keys properties of array items by index, naming the property without the index', () => {
      expect(errorsOf(body('cases.items.update'), [{ type: 'record' }])).toEqual({
        '0.id': ['The id field is required.'],
      })
    })
  })

  describe('type', () => {
    it('string', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, mobile: 5 })).toEqual({ mobile: ['The mobile field must be a string.'] })
    })

    it('integer', () => {
      expect(errorsOf(body('clients.files.create'), { attachment: 'abc' })).toEqual({
        attachment: ['The attachment field must be an integer.'],
      })
    })

    it('integer, in a query (after coercion)', () => {
      expect(errorsOf(query('clients.list'), { assignee: 'abc', limit: '1.5' })).toEqual({
        assignee: ['The assignee field must be an integer.'],
        limit: ['The limit field must be an integer.'],
      })
    })

    it('boolean', () => {
      expect(errorsOf(body('records.update'), { is_archived: 'yes' })).toEqual({
        is_archived: ['The is archived field must be true or false.'],
      })
      expect(errorsOf(query('webhooks.list'), { enabled: 'maybe' })).toEqual({ enabled: ['The enabled field must be true or false.'] })
    })

    it('array', () => {
      expect(errorsOf(body('webhooks.create'), { url: 'https://hooks.example.com/ivs', events: 'client.created' })).toEqual({
        events: ['The events field must be an array.'],
      })
    })

    it('object', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, name: 'Ada Lovelace' })).toEqual({
        name: ['The name field must be an object.'],
      })
      expect(errorsOf(body('clients.corrections.update'), { status: 'accepted', correction: 'Ada' })).toEqual({
        correction: ['The correction field must be an object.'],
      })
    })
  })

  describe('enum and const', () => {
    it('enum: the selected value is invalid', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, status: 'bogus' })).toEqual({ status: ['The selected status is invalid.'] })
    })

    it('enum in a query, including sort_by and order_by', () => {
      expect(errorsOf(query('clients.list'), { status: 'bogus', sort_by: 'email', order_by: 'up' })).toEqual({
        status: ['The selected status is invalid.'],
        sort_by: ['The selected sort by is invalid.'],
        order_by: ['The selected order by is invalid.'],
      })
    })

    it('const', () => {
      expect(errorsOf(body('cases.items.update'), [{ type: 'case', id: 3 }])).toEqual({
        '0.type': ['The selected type is invalid.'],
      })
    })

    it('an item of an array query parameter is keyed by its index', () => {
      expect(errorsOf(query('cases.list'), { status: ['bogus'] })).toEqual({ 'status.0': ['The selected status is invalid.'] })
    })

    it('a nested enum names only the last path part', () => {
      expect(errorsOf(body('steps.validate'), { steps: [{ type: 'check.bogus' }] })).toEqual({
        'steps.0.type': ['The selected type is invalid.'],
      })
    })
  })

  describe('format', () => {
    it('email', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, email: 'not-an-email' })).toEqual({
        email: ['The email field must be a valid email address.'],
      })
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, email: '' })).toEqual({
        email: ['The email field must be a valid email address.'],
      })
    })

    it('date', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, dob: '2020-13-45' })).toEqual({
        dob: ['The dob field must match the format Y-m-d.'],
      })
    })

    it('date: a value that is not a date at all gets one message, not two', () => {
      // One failure reads as one message (the date once had both format: date and a pattern, giving two).
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, dob: 'abc' })).toEqual({
        dob: ['The dob field must match the format Y-m-d.'],
      })
    })

    it('date-time', () => {
      expect(errorsOf(body('clients.files.create'), { attachment: 1, expires_at: 'yesterday' })).toEqual({
        expires_at: ['The expires at field must be a valid date.'],
      })
      expect(errorsOf(query('aggregates.caseStatus'), { start_date: 'last week' })).toEqual({
        start_date: ['The start date field must be a valid date.'],
      })
    })

    it('uuid', () => {
      expect(
        errorsOf(body('records.create'), { client: 1, notification: 'email', steps: [{ type: 'form', preferences: { form: 'not-a-uuid' } }] }),
      ).toEqual({ 'steps.0.preferences.form': ['The form field must be a valid UUID.'] })
    })

    it('pattern', () => {
      expect(errorsOf(schema('pattern', { code: { type: 'string', pattern: '^[A-Z]+$' } }), { code: 'abc' })).toEqual({
        code: ['The code field format is invalid.'],
      })
    })

    it('a custom errorMessage for several keywords is said once', () => {
      expect(errorsOf(body('webhooks.create'), { url: 'ftp://hooks.example.com', events: ['client.created'] })).toEqual({
        url: ['The url field must be a valid URL.'],
      })
      expect(errorsOf(body('webhooks.create'), { url: 'not a url', events: ['client.created'] })).toEqual({
        url: ['The url field must be a valid URL.'],
      })
    })
  })

  describe('lengths, sizes and counts', () => {
    it('minLength 1 reads as required', () => {
      expect(errorsOf(body('records.steps.reviews.create'), { status: 'approved', message: '' })).toEqual({
        message: ['The message field is required.'],
      })
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, name: { first_name: '', last_name: 'Lovelace' } })).toEqual({
        'name.first_name': ['The first name field is required.'],
      })
    })

    it('minLength above 1 names the limit', () => {
      expect(errorsOf(schema('min-length', { code: { type: 'string', minLength: 3 } }), { code: 'ab' })).toEqual({
        code: ['The code field must be at least 3 characters.'],
      })
    })

    it('maxLength', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, reference: 'x'.repeat(256) })).toEqual({
        reference: ['The reference field must not be greater than 255 characters.'],
      })
      expect(errorsOf(body('records.steps.reviews.create'), { status: 'approved', message: 'x'.repeat(1001) })).toEqual({
        message: ['The message field must not be greater than 1000 characters.'],
      })
    })

    it('minimum and maximum', () => {
      expect(errorsOf(query('clients.list'), { page: 0, limit: 101 })).toEqual({
        page: ['The page field must be at least 1.'],
        limit: ['The limit field must not be greater than 100.'],
      })
      expect(errorsOf(query('clients.list'), { limit: 0 })).toEqual({ limit: ['The limit field must be at least 1.'] })
      expect(errorsOf(body('clients.files.create'), { attachment: 0 })).toEqual({ attachment: ['The attachment field must be at least 1.'] })
    })

    it('multipleOf', () => {
      expect(errorsOf(schema('multiple-of', { days: { type: 'integer', multipleOf: 7 } }), { days: 10 })).toEqual({
        days: ['The days field must be a multiple of 7.'],
      })
    })

    it('minItems 1 reads as required', () => {
      expect(errorsOf(body('webhooks.create'), { url: 'https://hooks.example.com/ivs', events: [] })).toEqual({
        events: ['The events field is required.'],
      })
    })

    it('minItems above 1 names the count', () => {
      expect(errorsOf(body('formTemplates.create'), { name: 'Onboarding', fields: [] })).toEqual({
        fields: ['The fields field must have at least 2 items.'],
      })
    })

    it('maxItems', () => {
      expect(errorsOf(schema('max-items', { tags: { type: 'array', maxItems: 2 } }), { tags: ['a', 'b', 'c'] })).toEqual({
        tags: ['The tags field must not have more than 2 items.'],
      })
    })

    it('uniqueItems', () => {
      expect(
        errorsOf(body('webhooks.create'), { url: 'https://hooks.example.com/ivs', events: ['client.created', 'client.created'] }),
      ).toEqual({ events: ['The events field has a duplicate value.'] })
    })

    it('minProperties on a nested object', () => {
      expect(errorsOf(body('clients.corrections.update'), { status: 'accepted', correction: {} })).toEqual({
        correction: ['The correction field must not be empty.'],
      })
    })
  })

  describe('the body as a whole, under "errors"', () => {
    it('root minProperties', () => {
      expect(errorsOf(body('clients.update'), {})).toEqual({ errors: ['At least one property is required'] })
      expect(errorsOf(body('clients.address.replace'), {})).toEqual({ errors: ['At least one property is required'] })
    })

    it('root type', () => {
      expect(errorsOf(body('clients.create'), [])).toEqual({ errors: ['The request body must be a JSON object.'] })
      expect(errorsOf(body('clients.create'), 'Ada')).toEqual({ errors: ['The request body must be a JSON object.'] })
      expect(errorsOf(body('clients.organisations.add'), {})).toEqual({ errors: ['The request body must be a JSON array.'] })
    })

    it('any other root failure is keyed errors too', () => {
      expect(Object.keys(errorsOf(body('cases.items.update'), []))).toEqual(['errors'])
    })

    it("a contract's own message for the body as a whole replaces every other (docs/specification-notes.md \"Wire details\")", () => {
      const whole = { errors: ['The submitted value must be an array of assignee objects'] }
      for (const bad of [{}, [], [{ type: 'team_member' }], [{ type: 'user', team_member: 3 }], [{ type: 'team_member', team_member: 3, x: 1 }], [3]]) {
        expect(errorsOf(body('clients.assignees.add'), bad), JSON.stringify(bad)).toEqual(whole)
      }
      expect(errorsOf(body('clients.assignees.add'), Array.from({ length: 101 }, (_, i) => ({ type: 'team_member', team_member: i + 1 })))).toEqual(whole)
      expect(errorsOf(body('clients.organisations.add'), [])).toEqual({ errors: ['At least one organisation is required'] })
    })
  })

  describe('combinators', () => {
    it('anyOf with null: a wrong type is reported once, without the null branch', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, dob: 5 })).toEqual({ dob: ['The dob field must be a string.'] })
      expect(errorsOf(body('clients.files.create'), { attachment: 1, expires_at: 5 })).toEqual({
        expires_at: ['The expires at field must be a string.'],
      })
      expect(errorsOf(body('clients.address.replace'), { country: 'ZZ' })).toEqual({ country: ['The selected country is invalid.'] })
    })

    it('anyOf with null: null itself is valid', () => {
      const validate = body('clients.create')
      expect(validate({ ...VALID_CLIENT, dob: null, landline: null, deletion_date: null })).toBe(true)
    })

    it('anyOf whose branches all fail on type alone keeps one type message', () => {
      // records.update expired_at is anyOf [date-time string, boolean]; validate.ts says one type message is kept.
      const errors = errorsOf(body('records.update'), { expired_at: 5 })
      expect(Object.keys(errors)).toEqual(['expired_at'])
      expect(errors.expired_at).toHaveLength(1)
    })

    it('a custom errorMessage on an anyOf is reported once per value', () => {
      expect(errorsOf(body('webhooks.create'), { url: 'https://hooks.example.com/ivs', events: ['bogus', 'client.created'] })).toEqual({
        'events.0': ['The selected event is invalid.'],
      })
    })

    it('if/then: the custom message of a missing property, keyed by its path', () => {
      expect(errorsOf(body('clients.address.replace'), { country: 'GB' })).toEqual({
        postcode: ['The postcode field is required when country is GB.'],
      })
    })

    it('if/then: {placeholders} are filled from the object holding the key', () => {
      expect(errorsOf(body('clients.address.replace'), { country: 'US', postcode: '' })).toEqual({
        postcode: ['The postcode field is required when country is US.'],
      })
    })

    it('if/then inside a nested object', () => {
      expect(errorsOf(body('clients.create'), { ...VALID_CLIENT, name: { first_name: 'Ada', last_name: 'Lovelace', title: 'other' } })).toEqual(
        { 'name.other_title': ['The other title field is required when title is other.'] },
      )
      expect(errorsOf(body('clients.update'), { name: { title: 'other', other_title: '' } })).toEqual({
        'name.other_title': ['The other title field is required when title is other.'],
      })
    })

    it('if/then: a prohibited property', () => {
      expect(errorsOf(body('records.create'), { client: 1, template: 2, notification: 'email' })).toEqual({
        notification: ['The notification field is prohibited when template is present.'],
      })
    })
  })

  describe('expand', () => {
    it('an unknown value is keyed expand, with the custom message naming the allowed set', () => {
      expect(errorsOf(query('credits.list'), { expand: ['bogus'] })).toEqual({ expand: ['The expand parameter must be one of: causer'] })
    })

    it('several unknown values give the message once', () => {
      expect(errorsOf(query('cases.list'), { expand: ['bogus', 'client', 'other'] })).toEqual({
        expand: ['The expand parameter must be one of: client, items, assignees'],
      })
    })
  })

  it('reports every failing field at once', () => {
    expect(
      errorsOf(body('clients.create'), {
        name: { first_name: '', last_name: 5 },
        email: 'ada@example.com',
        status: 'bogus',
        dob: '2020-13-45',
        mobile: 5,
      }),
    ).toEqual({
      'name.first_name': ['The first name field is required.'],
      'name.last_name': ['The last name field must be a string.'],
      status: ['The selected status is invalid.'],
      dob: ['The dob field must match the format Y-m-d.'],
      mobile: ['The mobile field must be a string.'],
    })
  })
})

describe('readQuery', () => {
  const cases = queryShapeOf(contracts.querySchema('cases.list'))
  const webhooks = queryShapeOf(contracts.querySchema('webhooks.list'))
  const read = (search: string, shape = cases) => readQuery(new URL(`http://localhost/api/v2/cases${search}`).searchParams, shape)

  it('knows the array parameters and the types of every parameter from the schema', () => {
    expect([...cases.arrays].sort()).toEqual(['expand', 'status'])
    expect(webhooks.types.get('enabled')).toEqual(['boolean'])
    expect(cases.types.get('assigned_to')).toEqual(['integer', 'boolean'])
  })

  it('collects repeated values of an array parameter', () => {
    expect(read('?expand=client&expand=items')).toEqual({ expand: ['client', 'items'] })
  })

  it('splits comma-separated lists', () => {
    expect(read('?expand=client,items')).toEqual({ expand: ['client', 'items'] })
    expect(read('?expand=client%2Citems')).toEqual({ expand: ['client', 'items'] })
  })

  it('accepts the name[] form', () => {
    expect(read('?expand[]=client&expand[]=items')).toEqual({ expand: ['client', 'items'] })
    expect(read('?expand%5B%5D=client&expand%5B%5D=items')).toEqual({ expand: ['client', 'items'] })
  })

  it('mixes the forms, in order', () => {
    expect(read('?expand=client,items&expand[]=assignees&status=approved')).toEqual({
      expand: ['client', 'items', 'assignees'],
      status: ['approved'],
    })
  })

  it('drops empty items of a list', () => {
    expect(read('?expand=client,,items,%20')).toEqual({ expand: ['client', 'items'] })
  })

  it('keeps the last value of a scalar parameter', () => {
    expect(read('?search=first&search=second')).toEqual({ search: 'second' })
    expect(read('?search[]=first&search=second')).toEqual({ search: 'second' })
  })

  it('reads true, false, 1 and 0 as booleans, and leaves other values to the validator', () => {
    expect(read('?enabled=1', webhooks)).toEqual({ enabled: true })
    expect(read('?enabled=0', webhooks)).toEqual({ enabled: false })
    expect(read('?enabled=true', webhooks)).toEqual({ enabled: true })
    expect(read('?enabled=false', webhooks)).toEqual({ enabled: false })
    expect(read('?enabled=yes', webhooks)).toEqual({ enabled: 'yes' })
  })

  it('reads an integer-or-boolean parameter as an integer first', () => {
    expect(read('?assigned_to=1')).toEqual({ assigned_to: 1 })
    expect(read('?assigned_to=false')).toEqual({ assigned_to: false })
  })

  it('treats empty values as absent', () => {
    expect(read('?search=&expand=&status=&page=')).toEqual({})
    expect(read('?search=%20%20')).toEqual({})
    expect(read('?enabled=', webhooks)).toEqual({})
  })

  it('trims values', () => {
    expect(read('?search=%20Ada%20')).toEqual({ search: 'Ada' })
  })

  it('reads plain digits as integers, as strictly as Laravel: not 1e1, 0x10 or 1.0', () => {
    expect(read('?page=2&limit=10')).toEqual({ page: 2, limit: 10 })
    expect(read('?page=%2B3&limit=-1')).toEqual({ page: 3, limit: -1 })
    expect(read('?page=1e1&limit=0x10')).toEqual({ page: '1e1', limit: '0x10' })
    expect(read('?limit=1.0')).toEqual({ limit: '1.0' })
    expect(read('?limit=99999999999999999999')).toEqual({ limit: '99999999999999999999' })
  })
})

describe('checkQuery', () => {
  const shape = queryShapeOf(contracts.querySchema('cases.list'))

  it('coerces and fills in defaults', () => {
    const parsed = readQuery(new URL('http://localhost/api/v2/cases?page=2&limit=10&client=7&assigned_to=false&expand=items,client').searchParams, shape)
    expect(checkQuery(query('cases.list'), parsed)).toEqual({
      page: 2,
      limit: 10,
      client: 7,
      assigned_to: false,
      expand: ['items', 'client'],
      order_by: 'asc',
    })
  })

  it('throws a 422 keyed by parameter', () => {
    const error = thrown(() => checkQuery(query('cases.list'), { limit: 101 }))
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 422, body: { limit: ['The limit field must not be greater than 100.'] } })
  })
})

describe('checkBody', () => {
  it('returns a valid body as it is', () => {
    const input = { ...VALID_CLIENT }
    expect(checkBody(body('clients.create'), input)).toBe(input)
  })

  it('throws a 422 with the catalogue messages', () => {
    const error = thrown(() => checkBody(body('clients.create'), { email: 'ada@example.com' }))
    expect(error).toBeInstanceOf(HttpError)
    expect(error).toMatchObject({ status: 422, body: { name: ['The name field is required.'] } })
  })
})

/** What a body reads as after validateBody, and whether it is valid, from a copy of the input. */
function coerced(validate: ValidateFunction, input: unknown): { valid: boolean; body: unknown } {
  const body = normalizeInput(structuredClone(input))
  return { valid: validateBody(validate, body), body }
}

describe('validateBody: JSON read as Laravel reads it (docs/behaviour-notes.md "Validation (422)")', () => {
  const scalars = schema('coercion', {
    count: { type: 'integer' },
    maybe: { type: ['integer', 'null'], minimum: 1 },
    flag: { type: 'boolean' },
    text: { type: ['string', 'null'] },
  })

  it.each([
    ['a string of digits', '157', 157],
    ['digits with spaces around (trimmed first)', ' 157 ', 157],
    ['a sign', '-4', -4],
    ['a plus sign', '+4', 4],
    ['an integer as it is', 157, 157],
  ])('integer: takes %s', (_what, count, expected) => {
    expect(coerced(scalars, { count })).toEqual({ valid: true, body: { count: expected } })
  })

  it.each([
    ['a fraction', 1.5, 'The count field must be an integer.'],
    ['a fraction in a string', '1.5', 'The count field must be an integer.'],
    ['an exponent', '1e3', 'The count field must be an integer.'],
    ['hexadecimal', '0x10', 'The count field must be an integer.'],
    ['a boolean', true, 'The count field must be an integer.'],
    ['digits past PHP_INT_MAX', '9223372036854775808', 'The count field must be an integer.'],
    ['an empty string (null, then refused as missing)', '', 'The count field is required.'],
  ])('integer: refuses %s', (_what, count, message) => {
    const validate = scalars
    const { valid, body: read } = coerced(validate, { count })
    expect(valid).toBe(false)
    expect(toValidationErrors(validate.errors, read)).toEqual({ count: [message] })
  })

  it('integer: a coerced value meets the same limits as a number would', () => {
    const { valid, body: read } = coerced(scalars, { maybe: '0' })
    expect([valid, read]).toEqual([false, { maybe: 0 }])
    expect(toValidationErrors(scalars.errors, read)).toEqual({ maybe: ['The maybe field must be at least 1.'] })
  })

  it.each([
    [true, true],
    [false, false],
    [1, true],
    [0, false],
    ['1', true],
    ['0', false],
  ])('boolean: takes %j as %j', (flag, expected) => {
    expect(coerced(scalars, { flag })).toEqual({ valid: true, body: { flag: expected } })
  })

  it.each(['true', 'false', 'yes', 2, -1, '01'])('boolean: refuses %j', (flag) => {
    const { valid, body: read } = coerced(scalars, { flag })
    expect(valid).toBe(false)
    expect(toValidationErrors(scalars.errors, read)).toEqual({ flag: ['The flag field must be true or false.'] })
  })

  it('string: refuses numbers and booleans, and an empty string is null', () => {
    expect(coerced(scalars, { text: '' })).toEqual({ valid: true, body: { text: null } })
    for (const text of [5, true]) {
      const { valid, body: read } = coerced(scalars, { text })
      expect(valid).toBe(false)
      expect(toValidationErrors(scalars.errors, read)).toEqual({ text: ['The text field must be a string.'] })
    }
  })

  it('follows $refs, arrays and if/then into the contract (a record create and its steps)', () => {
    const validate = body('records.create')
    const input = {
      client: '157',
      steps: [
        { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'], face: '1', liveness: 0 } },
        { type: 'document.request', preferences: { template: '12' } },
        { type: 'check.dummy', preferences: { credit_cost: ' 3 ', cancel: '0' } },
      ],
      notification: 'email',
      reminder: 1,
    }
    expect(coerced(validate, input)).toEqual({
      valid: true,
      body: {
        client: 157,
        steps: [
          { type: 'check.photo_id', preferences: { report_type: 'standard', docs: ['passport'], face: true, liveness: false } },
          { type: 'document.request', preferences: { template: 12 } },
          { type: 'check.dummy', preferences: { credit_cost: 3, cancel: false } },
        ],
        notification: 'email',
        reminder: true,
      },
    })
  })

  it('leaves a value alone where a branch takes it as it is', () => {
    const validate = schema('coercion-branches', { either: { anyOf: [{ type: 'string' }, { type: 'integer' }] } })
    expect(coerced(validate, { either: '157' })).toEqual({ valid: true, body: { either: '157' } })
  })

  it('coerces into the one branch a value fits only once coerced', () => {
    const validate = schema('coercion-fits', { either: { anyOf: [{ type: 'string', format: 'uuid' }, { type: 'integer' }] } })
    expect(coerced(validate, { either: '157' })).toEqual({ valid: true, body: { either: 157 } })
  })

  it('does not coerce a value into a branch it does not belong to', () => {
    // The integer branch wants `kind: number`; the other takes a string id: "157" stays a string
    // there, and becomes a number only where the integer branch is the one that applies.
    const validate = schema('coercion-one-of', {
      item: {
        oneOf: [
          { type: 'object', required: ['kind', 'id'], properties: { kind: { const: 'number' }, id: { type: 'integer' } } },
          { type: 'object', required: ['kind', 'id'], properties: { kind: { const: 'name' }, id: { type: 'string' } } },
        ],
      },
    })
    expect(coerced(validate, { item: { kind: 'name', id: '157' } })).toEqual({ valid: true, body: { item: { kind: 'name', id: '157' } } })
    expect(coerced(validate, { item: { kind: 'number', id: '157' } })).toEqual({ valid: true, body: { item: { kind: 'number', id: 157 } } })
    const refused = coerced(validate, { item: { kind: 'other', id: '157' } })
    expect(refused).toEqual({ valid: false, body: { item: { kind: 'other', id: '157' } } })
  })

  it('coerces the items of an array body by index', () => {
    expect(coerced(body('clients.organisations.add'), ['4', 5, ' 6 '])).toEqual({ valid: true, body: [4, 5, 6] })
  })

  it("finds the wrong types behind a contract's own message for the whole body", () => {
    expect(coerced(body('clients.assignees.add'), [{ type: 'team_member', team_member: '7' }])).toEqual({ valid: true, body: [{ type: 'team_member', team_member: 7 }] })
  })
})

describe('passedSchema and mergeErrors: one 422 with the rules the contract cannot state', () => {
  it('says a key passed when no error is keyed by it, inside it or by what holds it', () => {
    const passed = passedSchema({ 'steps.0.preferences.docs': ['x'], reminder: ['y'] })
    expect(['client', 'steps.1', 'steps.1.preferences', 'template'].map(passed)).toEqual([true, true, true, true])
    expect(['steps', 'steps.0', 'steps.0.preferences.docs.0', 'reminder'].map(passed)).toEqual([false, false, false, false])
  })

  it('says nothing passed when the body as a whole failed', () => {
    expect(passedSchema({ errors: ['The request body must be a JSON object.'] })('client')).toBe(false)
  })

  it('keys the merged errors in the order of the body properties, array items by index, messages once', () => {
    const merged = mergeErrors(
      { 'steps.0.preferences.docs': ['The docs field is required.'], reminder: ['The reminder field must be true or false.'], client: ['The client field must be an integer.'] },
      { template: ['The selected template is invalid.'], client: ['The client field must be an integer.', 'The selected client is invalid.'], '1.id': ['b'], '0.id': ['a'] },
      ['client', 'template', 'steps', 'notification', 'reminder'],
    )
    expect(Object.entries(merged)).toEqual([
      ['client', ['The client field must be an integer.', 'The selected client is invalid.']],
      ['template', ['The selected template is invalid.']],
      ['steps.0.preferences.docs', ['The docs field is required.']],
      ['reminder', ['The reminder field must be true or false.']],
      ['0.id', ['a']],
      ['1.id', ['b']],
    ])
  })
})

describe('parseJsonBody', () => {
  it('reads an empty or blank body as {}', () => {
    expect(parseJsonBody('')).toEqual({})
    expect(parseJsonBody('  \n\t')).toEqual({})
  })

  it('parses JSON of any shape', () => {
    expect(parseJsonBody('{"name":{"first_name":"Ada"}}')).toEqual({ name: { first_name: 'Ada' } })
    expect(parseJsonBody('[1,2]')).toEqual([1, 2])
    expect(parseJsonBody('null')).toBeNull()
  })

  it('refuses malformed JSON with a 422 about the body as a whole', () => {
    for (const text of ['{"name":', '{bad}', "{'a': 1}", 'undefined']) {
      const error = thrown(() => parseJsonBody(text))
      expect(error, text).toBeInstanceOf(HttpError)
      const http = error as HttpError
      expect(http.status).toBe(422)
      expect(http.body).toEqual({ errors: ['The request body must be valid JSON.'] })
      expect(http.headers).toEqual({})
    }
  })
})
