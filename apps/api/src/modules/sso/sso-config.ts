import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ROLES, type Role } from '@sutura/domain/roles';
import { SSO_PROVIDER_ID, type SsoKind } from '@sutura/domain/sso';

/** Where each claim of the person is read in the ID token or userinfo (dotted paths allowed). */
export interface ClaimMapping {
  email: string;
  emailVerified: string;
  firstName: string;
  lastName: string;
  /** PSC: the RPPS with its leading identifier-type digit. */
  rpps: string[];
  profession: string;
}

/** One OpenID Connect provider, as the installation configures it. */
export interface SsoProvider {
  id: string;
  kind: SsoKind;
  name: { fr: string; en: string };
  issuer: string;
  clientId: string;
  auth:
    { method: 'client_secret_basic' | 'client_secret_post'; secret: string } | { method: 'private_key_jwt'; keyPem: string; kid?: string };
  scopes: string;
  /** Sent as `acr_values`; with `requireAcr`, the ID token's `acr` must be this value. */
  acrValues: string | null;
  requireAcr: string | null;
  /** The provider answers userinfo as a signed JWT (PSC). */
  userinfoJwt: boolean;
  /** Read the person's claims from userinfo too (PSC gives them only there). */
  useUserinfo: boolean;
  claims: ClaimMapping;
  /** Hospital providers: groups or roles of the provider that give Sutura roles, at each sign-in. */
  roles: { claim: string; map: Record<string, Role[]> } | null;
  /** An http:// issuer on this machine (development and tests only). */
  allowHttp: boolean;
  /** Seconds of clock difference tolerated on the tokens' times. */
  clockToleranceSeconds: number;
}

const claimsSchema = z
  .object({
    email: z.string(),
    emailVerified: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    rpps: z.union([z.string(), z.array(z.string())]),
    profession: z.string(),
  })
  .partial()
  .strict();

const providerSchema = z
  .object({
    id: z.string().regex(SSO_PROVIDER_ID, { error: 'lower-case letters, digits and dashes (at most 40)' }),
    preset: z.enum(['psc', 'hospital']).default('hospital'),
    name: z.object({ fr: z.string().min(1).max(60), en: z.string().min(1).max(60) }).strict(),
    issuer: z.url(),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1).optional(),
    clientAuth: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']).optional(),
    /** private_key_jwt: a PEM file in DATA_DIR (relative path) or anywhere (absolute), or the PEM itself. */
    privateKeyFile: z.string().min(1).optional(),
    privateKey: z.string().min(1).optional(),
    privateKeyId: z.string().min(1).optional(),
    scopes: z.string().min(1).optional(),
    acrValues: z.string().min(1).optional(),
    requireAcr: z.string().min(1).optional(),
    userinfoJwt: z.boolean().optional(),
    useUserinfo: z.boolean().optional(),
    claims: claimsSchema.optional(),
    roles: z
      .object({ claim: z.string().min(1), map: z.record(z.string(), z.array(z.enum(ROLES)).min(1)) })
      .strict()
      .optional(),
    clockToleranceSeconds: z.number().int().min(0).max(300).optional(),
  })
  .strict();

const PSC_CLAIMS: ClaimMapping = {
  email: 'email',
  emailVerified: 'email_verified',
  firstName: 'given_name',
  lastName: 'family_name',
  rpps: ['SubjectNameID', 'preferred_username'],
  profession: 'SubjectRefPro.exercices.0.codeProfession',
};
const HOSPITAL_CLAIMS: ClaimMapping = {
  email: 'email',
  emailVerified: 'email_verified',
  firstName: 'given_name',
  lastName: 'family_name',
  rpps: [],
  profession: 'profession',
};

const isLocal = (url: string) => ['localhost', '127.0.0.1', '[::1]'].includes(new URL(url).hostname);

/**
 * Reads OIDC_PROVIDERS (JSON) or OIDC_PROVIDERS_FILE (a JSON file): an array of providers. Throws
 * an Error naming each bad key; none configured gives an empty list.
 */
export function parseSsoProviders(env: { json?: string | undefined; file?: string | undefined; dataDir: string }): SsoProvider[] {
  if (env.json && env.file) throw new Error('OIDC_PROVIDERS and OIDC_PROVIDERS_FILE: set one or the other');
  let text = env.json;
  if (env.file) {
    try {
      text = readFileSync(path.resolve(env.dataDir, env.file), 'utf8');
    } catch (error) {
      throw new Error(`OIDC_PROVIDERS_FILE: cannot read ${env.file} (${(error as Error).message})`, { cause: error });
    }
  }
  if (!text?.trim()) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(`OIDC_PROVIDERS: not JSON (${(error as Error).message})`, { cause: error });
  }
  const parsed = z.array(providerSchema).safeParse(raw);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `OIDC_PROVIDERS[${i.path.join('.')}]: ${i.message}`).join('\n  '));
  }
  const ids = new Set<string>();
  return parsed.data.map((p, index) => {
    const where = `OIDC_PROVIDERS[${index}]`;
    if (ids.has(p.id)) throw new Error(`${where}.id: "${p.id}" is used twice`);
    ids.add(p.id);
    const psc = p.preset === 'psc';
    const method = p.clientAuth ?? (p.privateKey || p.privateKeyFile ? 'private_key_jwt' : 'client_secret_basic');
    let auth: SsoProvider['auth'];
    if (method === 'private_key_jwt') {
      if (!p.privateKey && !p.privateKeyFile) throw new Error(`${where}: private_key_jwt needs privateKeyFile or privateKey`);
      let keyPem = p.privateKey;
      if (!keyPem) {
        try {
          keyPem = readFileSync(path.resolve(env.dataDir, p.privateKeyFile!), 'utf8');
        } catch (error) {
          throw new Error(`${where}.privateKeyFile: cannot read ${p.privateKeyFile} (${(error as Error).message})`, {
            cause: error,
          });
        }
      }
      if (!keyPem.includes('PRIVATE KEY')) throw new Error(`${where}: the private key is not a PEM private key`);
      auth = { method, keyPem, ...(p.privateKeyId ? { kid: p.privateKeyId } : {}) };
    } else {
      if (!p.clientSecret) throw new Error(`${where}.clientSecret: required with ${method}`);
      auth = { method, secret: p.clientSecret };
    }
    const allowHttp = p.issuer.startsWith('http://');
    if (allowHttp && !isLocal(p.issuer)) throw new Error(`${where}.issuer: must be https (http only on this machine)`);
    if (psc && p.roles) throw new Error(`${where}.roles: Pro Santé Connect gives no groups; roles come from hospital providers`);
    const rpps = p.claims?.rpps;
    return {
      id: p.id,
      kind: psc ? 'psc' : 'hospital',
      name: p.name,
      issuer: p.issuer,
      clientId: p.clientId,
      auth,
      scopes: p.scopes ?? (psc ? 'openid scope_all' : 'openid profile email'),
      acrValues: p.acrValues ?? (psc ? 'eidas1' : null),
      requireAcr: p.requireAcr ?? (psc ? 'eidas1' : null),
      userinfoJwt: p.userinfoJwt ?? psc,
      useUserinfo: p.useUserinfo ?? psc,
      claims: {
        ...(psc ? PSC_CLAIMS : HOSPITAL_CLAIMS),
        ...p.claims,
        ...(rpps !== undefined ? { rpps: typeof rpps === 'string' ? [rpps] : rpps } : {}),
      } as ClaimMapping,
      roles: p.roles ?? null,
      allowHttp,
      clockToleranceSeconds: p.clockToleranceSeconds ?? 30,
    } satisfies SsoProvider;
  });
}
