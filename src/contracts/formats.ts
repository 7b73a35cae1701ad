// Formats whose JSON Schema meaning ajv-formats narrows. `email` in JSON Schema is an RFC 5321
// mailbox, which is also what Laravel's default email rule (egulias RFCValidation) accepts: a
// domain needs no dot (0@com), a local part may be quoted, a domain may be an address literal.
// ajv-formats' email wants a dotted domain, so the contract and the server would disagree.
const atext = "[A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~]"
const dotString = `${atext}+(?:\\.${atext}+)*`
const quotedString = '"(?:[\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\x20-\\x7e])*"'
const subDomain = '[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?'
const addressLiteral = '\\[[\\x21-\\x5a\\x5e-\\x7e]+\\]'

/** RFC 5321 Mailbox: Local-part "@" ( Domain / address-literal ). */
export const RFC5321_MAILBOX = new RegExp(`^(?:${dotString}|${quotedString})@(?:${subDomain}(?:\\.${subDomain})*|${addressLiteral})$`)
