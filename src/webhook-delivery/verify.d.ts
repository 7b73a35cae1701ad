// Types of verify.js (ivs-mock/webhooks, package.json "exports"); keep the two in step.

/** The X-SVC-Signature of a delivery body: base64 of HMAC-SHA256 over the raw body, keyed with the webhook's secret. */
export declare function sign(rawBody: string | Uint8Array, secret: string): string

/** Whether an X-SVC-Signature header is the signature of the raw body with the secret (constant-time; false when missing or malformed). */
export declare function verifySignature(rawBody: string | Uint8Array, signatureHeader: string | string[] | null | undefined, secret: string): boolean
