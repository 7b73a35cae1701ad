// Every error the API answers with, in the exact shapes of docs/specification-notes.md "Status codes and bodies".
// Services throw these; app.ts renders them once in onError.
export type ErrorBody = Record<string, unknown>
export type ValidationErrors = Record<string, string[]>

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
    /** Why, for the journal (never on the wire: the service's bodies do not say). */
    readonly reason?: string,
  ) {
    super(`${status} ${JSON.stringify(body)}`)
  }
}

export const unauthenticated = () => new HttpError(401, { error: 'Unauthenticated.' })

/** The reason is for the journal only: every 403 has the same body. */
export const forbidden = (reason: string) => new HttpError(403, { message: 'This action is unauthorized.' }, {}, reason)

export const NOT_ASSIGNED = 'an assigned-only member acting on something not assigned to them'

/** notFound('Client') -> 404 {"error": "Client not found"} */
export const notFound = (resource: string) => new HttpError(404, { error: `${resource} not found` })

/**
 * notFoundMessage('Correction') -> 404 {"message": "Correction not found"}: the key the correction
 * update uses for its 404s, unlike every other operation (docs/specification-notes.md "Wire details").
 */
export const notFoundMessage = (resource: string) => new HttpError(404, { message: `${resource} not found` })

export const routeNotFound = () => new HttpError(404, { error: 'Not Found.' })

export const notAllowed = (message: string) => new HttpError(405, { message })

/** 422 keyed by dot path (or query parameter), each an array of messages. */
export const invalid = (errors: ValidationErrors) => new HttpError(422, errors)

/** Throws the 422 of the errors found, if any. */
export function assertValid(errors: ValidationErrors): void {
  if (Object.keys(errors).length > 0) throw invalid(errors)
}

/** For a service called outside the API gate (the seed, the control API): every key of its input passed the schema. */
export const everyKeyPassed = (): boolean => true

/** 422 about the body as a whole. */
export const invalidBody = (message: string) => new HttpError(422, { errors: [message] })

export const tooManyRequests = (headers: Record<string, string>) =>
  new HttpError(429, { message: 'Too Many Attempts.' }, headers)

export const serverError = () => new HttpError(500, { message: 'Server Error' })

/** An answer of the web server in front of the API: an HTML page, not JSON. */
export class HtmlError extends HttpError {
  constructor(
    status: number,
    readonly page: string,
    headers: Record<string, string> = {},
  ) {
    super(status, {}, headers)
  }
}

/** nginx's own error page, line for line. */
export const nginxPage = (title: string) =>
  `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`

/**
 * 413 for a body over the upload limit: the web server's HTML page (docs/specification-notes.md "Wire details"). It
 * closes the connection, as nginx does, so a client still sending stops.
 */
export const payloadTooLarge = () => new HtmlError(413, nginxPage('413 Request Entity Too Large'), { connection: 'close' })
