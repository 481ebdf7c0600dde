import { z } from 'zod';
import { ROLES } from './roles.ts';
import { codeField, emailField, plainString, required } from './rules.ts';

/**
 * Single sign-on through OpenID Connect: Pro Santé Connect (the national identity of French
 * health professionals) and the hospital's own identity provider (Keycloak, AD FS, Entra ID…).
 */
export const SSO_KINDS = ['psc', 'hospital'] as const;
export type SsoKind = (typeof SSO_KINDS)[number];

/** A provider id: what the callback URL and the configuration name it by. */
export const SSO_PROVIDER_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;

const bilingual = z.object({ fr: z.string(), en: z.string() });

/** What the sign-in page offers: the providers, and whether a password also signs in. */
export const ssoOptionsSchema = z.object({
  providers: z.array(z.object({ id: z.string(), kind: z.enum(SSO_KINDS), name: bilingual })),
  passwordSignIn: z.boolean().describe('False when the installation is SSO-only (except for its break-glass administrator).'),
});
export type SsoOptions = z.infer<typeof ssoOptionsSchema>;

/** Where the web app may send a person back after signing in: a path of the app, nothing else. */
export const ssoStartQuery = z.object({
  next: plainString()
    .max(300)
    .regex(/^\/(?!\/)[\w\-./?=&%]*$/, { error: 'INVALID_VALUE' })
    .optional(),
  langCode: z.string().optional(),
});

export const ssoProviderParams = z.object({ provider: plainString().regex(SSO_PROVIDER_ID, { error: 'SSO_PROVIDER_UNKNOWN' }) });

/**
 * A proven identity that has no Sutura account yet: `signUp`, the person completes what the
 * provider did not give; `link`, an account already exists (same RPPS, or same verified email)
 * and its holder proves they hold it (password or emailed code) before it is linked.
 */
export const ssoPendingSchema = z.object({
  kind: z.enum(['signUp', 'link']),
  provider: z.object({ id: z.string(), kind: z.enum(SSO_KINDS), name: bilingual }),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable().describe('The email the provider gave (verified), null when it gave none.'),
  rpps: z.string().nullable(),
  profession: z.string().nullable(),
  /** For `link`: the account's email, partly hidden; whether it has a password to prove it with. */
  account: z.object({ maskedEmail: z.string(), hasPassword: z.boolean() }).nullable(),
});
export type SsoPending = z.infer<typeof ssoPendingSchema>;

/** Completes a first sign-in: only what the provider does not give. */
export const ssoCompleteBody = z.object({
  email: emailField().optional(),
  specialtyId: required().uuid({ error: 'FIELD_REQUIRED' }),
  acceptTerms: z.literal(true, { error: 'TERMS_REQUIRED' }),
  acceptPrivacy: z.literal(true, { error: 'TERMS_REQUIRED' }),
});
export type SsoCompleteBody = z.input<typeof ssoCompleteBody>;

/** Proves the holding of the existing account: its password, or the code mailed to it. */
export const ssoLinkBody = z.union([
  z.object({ password: plainString().min(1, { error: 'FIELD_REQUIRED' }).max(256) }),
  z.object({ code: codeField() }),
]);
export type SsoLinkBody = z.input<typeof ssoLinkBody>;

export const ssoIdentitySchema = z.object({
  id: z.string(),
  provider: z.object({ id: z.string(), kind: z.enum(SSO_KINDS), name: bilingual }),
  subject: z.string(),
  email: z.string().nullable(),
  rpps: z.string().nullable(),
  profession: z.string().nullable(),
  rolesFromProvider: z.boolean().describe("The person's roles follow the provider's groups at each sign-in."),
  linkedAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type SsoIdentity = z.infer<typeof ssoIdentitySchema>;

export const ssoIdentitiesResponse = z.object({
  identities: z.array(ssoIdentitySchema),
  hasPassword: z.boolean().describe('Whether a password also signs in to this account.'),
});

/** For administrators: each provider, and the roles its groups give. */
export const ssoAdminSchema = z.object({
  providers: z.array(
    z.object({
      id: z.string(),
      kind: z.enum(SSO_KINDS),
      name: bilingual,
      issuer: z.string(),
      requiredAcr: z.string().nullable(),
      roles: z
        .object({ claim: z.string(), map: z.record(z.string(), z.array(z.enum(ROLES))) })
        .nullable()
        .describe('Groups or roles of the provider and the Sutura roles they give, applied at each sign-in.'),
    }),
  ),
  ssoOnly: z.boolean(),
  breakGlassEmail: z.string().nullable(),
  callbackUrl: z.string().describe('The callback URL to register with each provider, {id} standing for its id.'),
});
export type SsoAdmin = z.infer<typeof ssoAdminSchema>;

export const signOutResponse = z.object({
  endSessionUrl: z
    .string()
    .optional()
    .describe("Where to send the browser so that the provider's own session ends too (RP-initiated logout)."),
});

/** A PSC `SubjectNameID` (or `preferred_username`): the RPPS after its leading identifier-type digit 8. */
export function rppsFromPsc(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  const prefixed = /^8(\d{11})$/.exec(v);
  if (prefixed) return prefixed[1]!;
  return null;
}
