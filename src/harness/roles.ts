// The roles a token can be given for, in a module of their own: the CLI's options name them, and
// importing them from the runner would load the runner (and its YAML parser) on every start.
import type { Role } from '../contracts/scenario.generated.ts'

/** Roles a token can be given for (the scenario format's roles but none). */
export type TokenRole = Exclude<Role, 'none'>
export const TOKEN_ROLES: readonly TokenRole[] = ['owner', 'member', 'read-only', 'assigned-only', 'assumed', 'other-team', 'legacy']
