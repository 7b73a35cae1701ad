// The types of bin/staleness.js (plain JavaScript the launcher runs as it is), for the tests.
export declare const BUNDLE: 'dist/main.js'
/** Whether `root` (ending in /) is a checkout, with sources to build the bundle from. */
export declare function isCheckout(root: string): boolean
/** Why the bundle under `root` (ending in /) must be rebuilt, or undefined when it need not be. */
export declare function staleness(root: string): string | undefined
