// The OAuth endpoints' errors (docs/specification-notes.md "OAuth 2.0"): RFC 6749 section 5.2 as the PHP league server
// writes them, with its descriptions and hints word for word. app.ts renders them like every HttpError.
import { HttpError } from '../kernel/errors.ts'

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type'

function oauthError(status: number, error: OAuthErrorCode, description: string, hint?: string): HttpError {
  return new HttpError(status, { error, error_description: description, ...(hint !== undefined && { hint }), message: description })
}

export const invalidRequest = (parameter: string, hint = `Check the \`${parameter}\` parameter`) =>
  oauthError(
    400,
    'invalid_request',
    'The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed.',
    hint,
  )

export const invalidClient = () => oauthError(401, 'invalid_client', 'Client authentication failed')

export const invalidGrant = (hint: string) =>
  oauthError(
    400,
    'invalid_grant',
    'The provided authorization grant (e.g., authorization code, resource owner credentials) or refresh token is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
    hint,
  )

export const invalidRefreshToken = (hint: string) => oauthError(400, 'invalid_grant', 'The refresh token is invalid.', hint)

export const unsupportedGrantType = () =>
  oauthError(400, 'unsupported_grant_type', 'The authorization grant type is not supported by the authorization server.', 'Check that all required parameters have been provided')
