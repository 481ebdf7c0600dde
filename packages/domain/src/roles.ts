export const ROLES = ['learner', 'editor', 'expert', 'administrator', 'copil'] as const;
export type Role = (typeof ROLES)[number];

/** Roles that practise surgery-related work in the app (as opposed to running it). */
export const PRACTICE_ROLES: readonly Role[] = ['learner', 'editor', 'expert'];
/** Roles that see the admin area; copil only reads it. */
export const ADMIN_ROLES: readonly Role[] = ['administrator', 'copil'];

export function hasAnyRole(userRoles: readonly string[], allowed: readonly Role[]): boolean {
  return allowed.length === 0 || allowed.some((r) => userRoles.includes(r));
}

/**
 * Roles that may change anything in the admin area. Copil reads every admin page and call
 * (ADMIN_ROLES) but writes nothing: every admin write route declares this list as its access rule.
 */
export const ADMIN_WRITE_ROLES: readonly Role[] = ['administrator'];

export function mayAdminWrite(userRoles: readonly string[]): boolean {
  return hasAnyRole(userRoles, ADMIN_WRITE_ROLES);
}
