import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import Provider from 'oidc-provider';

/**
 * A real OpenID Connect provider (oidc-provider, certified), in-process, for the tests: configured
 * like Pro Santé Connect (scope_all, SubjectNameID with the RPPS type digit, SubjectRefPro, acr
 * eidas1, userinfo as a signed JWT) or like a hospital's Keycloak (email, email_verified, groups).
 * The "person" signing in is chosen by the test (`nextAccount`): the login page of the provider
 * signs them in at once. `tamper` rewrites the ID token the token endpoint answers (a hostile or
 * broken provider), to check that Sutura refuses it.
 */
export type ProviderFlavour = 'psc' | 'keycloak';

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** With `clientAuth: 'private_key_jwt'`: the client's private key (PEM), whose public half the provider knows. */
  clientKeyPem: string;
  /** The claims of each account, by account id (its subject). */
  accounts: Map<string, Record<string, unknown>>;
  nextAccount: string;
  /** The `acr` of the next sign-in. */
  acr: string;
  tamper: ((idToken: string) => Promise<string>) | undefined;
  /** Signs a token as the provider does (its key and kid), after the test changed its claims. */
  resign(idToken: string, change: (claims: Record<string, unknown>) => Record<string, unknown>): Promise<string>;
  /** Signs with a key the provider does not publish, under the provider's kid. */
  forge(idToken: string): Promise<string>;
  /** The same claims with `alg: none` and no signature. */
  unsigned(idToken: string): string;
  close(): Promise<void>;
}

export async function startTestProvider(opts: {
  flavour: ProviderFlavour;
  redirectUri: string;
  postLogoutRedirectUri: string;
  port?: number;
  /** How the client authenticates at the token endpoint (a client secret by default). */
  clientAuth?: 'client_secret_basic' | 'private_key_jwt';
}): Promise<TestProvider> {
  const psc = opts.flavour === 'psc';
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: `${opts.flavour}-key-1`, alg: 'RS256', use: 'sig' } as JWK;
  const { privateKey: strangerKey } = await generateKeyPair('RS256', { extractable: true });
  const client = await generateKeyPair('ES256', { extractable: true });
  const clientKeyPem = await exportPKCS8(client.privateKey);
  const keyAuth = opts.clientAuth === 'private_key_jwt';

  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const clientId = `sutura-${opts.flavour}`;
  const clientSecret = `${opts.flavour}-secret-0123456789abcdef0123456789`;
  const accounts = new Map<string, Record<string, unknown>>();
  const pscClaims = ['SubjectNameID', 'preferred_username', 'SubjectRefPro', 'given_name', 'family_name', 'email', 'email_verified'];
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        ...(keyAuth
          ? {
              token_endpoint_auth_method: 'private_key_jwt',
              jwks: { keys: [{ ...(await exportJWK(client.publicKey)), kid: 'sutura-client-key', alg: 'ES256', use: 'sig' }] },
            }
          : { client_secret: clientSecret }),
        redirect_uris: [opts.redirectUri],
        post_logout_redirect_uris: [opts.postLogoutRedirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        id_token_signed_response_alg: 'RS256',
        ...(psc ? { userinfo_signed_response_alg: 'RS256' } : {}),
      },
    ],
    jwks: { keys: [jwk] },
    findAccount: (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: () => ({ sub: id, ...accounts.get(id) }),
    }),
    claims: psc
      ? { openid: ['sub'], scope_all: pscClaims }
      : { openid: ['sub'], email: ['email', 'email_verified'], profile: ['given_name', 'family_name'], groups: ['groups'] },
    scopes: psc ? ['openid', 'scope_all'] : ['openid', 'email', 'profile', 'groups'],
    acrValues: ['eidas1', 'eidas2'],
    // Keycloak puts the person's claims in the ID token; PSC gives them in userinfo.
    conformIdTokenClaims: psc,
    features: {
      devInteractions: { enabled: false },
      jwtUserinfo: { enabled: psc },
      rpInitiatedLogout: { enabled: true, logoutSource: logoutPage },
    },
    pkce: { required: () => true },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 600, Grant: 600 },
  });
  const state: TestProvider = {
    issuer,
    clientId,
    clientSecret,
    clientKeyPem,
    accounts,
    nextAccount: '',
    acr: 'eidas1',
    tamper: undefined,
    async resign(idToken, change) {
      const claims = change({ ...decodeJwt(idToken) });
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: jwk.kid! }).sign(privateKey);
    },
    async forge(idToken) {
      return new SignJWT({ ...decodeJwt(idToken) }).setProtectedHeader({ alg: 'RS256', kid: jwk.kid! }).sign(strangerKey);
    },
    unsigned(idToken) {
      const header = { ...decodeProtectedHeader(idToken), alg: 'none' };
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      return `${part(header)}.${part(decodeJwt(idToken))}.`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (ctx.path === '/token' && body?.id_token && state.tamper) body.id_token = await state.tamper(body.id_token);
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/interaction/')) return handle(req, res);
    // The provider's login page: the account the test chose signs in at once, and consents.
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const accountId = state.nextAccount;
      const grant = new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(details.params.scope ?? 'openid');
      grant.addOIDCClaims(psc ? pscClaims : ['email', 'email_verified', 'given_name', 'family_name', 'groups']);
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId, acr: state.acr }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return state;
}

/** The provider's sign-out confirmation, submitted at once (as a person clicking "yes"). */
async function logoutPage(ctx: { body: string }, form: string): Promise<void> {
  ctx.body = `<!DOCTYPE html><html><body>${form}<script>document.forms[0].insertAdjacentHTML('beforeend','<input type="hidden" name="logout" value="yes">');document.forms[0].submit()</script></body></html>`;
}

/** A PSC person: the RPPS with its identifier-type digit 8, the profession in SubjectRefPro. */
export function pscClaims(rpps: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    ...(rpps ? { SubjectNameID: `8${rpps}`, preferred_username: `8${rpps}` } : {}),
    SubjectRefPro: { codeCivilite: 'M', exercices: [{ codeProfession: '10', codeCategorieProfessionnelle: 'C' }] },
    given_name: 'IGNORED-GIVEN',
    family_name: 'IGNORED-FAMILY',
    ...extra,
  };
}

/**
 * Follows a sign-in through the provider as a browser does (its cookies kept), from the
 * authorization URL until the provider sends the browser back to Sutura: that URL is returned.
 */
export async function browseProvider(authorizationUrl: string, backTo: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizationUrl;
  for (let hops = 0; hops < 15; hops++) {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const cookie of res.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!.trim(), value.join('='));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`The provider stopped at ${url} (${res.status}): ${(await res.text()).slice(0, 300)}`);
    const next = new URL(location, url).href;
    if (next.startsWith(backTo)) return next;
    url = next;
  }
  throw new Error('Too many redirects at the provider');
}
