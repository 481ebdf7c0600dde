import AxeBuilder from '@axe-core/playwright';
import { request as apiRequest, type Page } from '@playwright/test';
import { pscClaims, startTestProvider, type TestProvider } from '../apps/api/test/oidc-test-provider.ts';
import { expect, people, test, type Person } from './fixtures.ts';
import { freePort, startServer, type TestServer } from './server.ts';
import { chooseOption } from './support.ts';

/**
 * Signing in with real OpenID Connect providers (oidc-provider), in Chromium, through the real
 * pages: one provider like Pro Santé Connect, one like a hospital's Keycloak. Sutura runs here as
 * a server of its own, configured with both and SSO-only: the providers must know its address
 * before it starts, and it must know theirs, so its port is chosen first.
 */
const state: { server?: TestServer; psc?: TestProvider; chu?: TestProvider; breakGlass?: Person; learner?: Person } = {};
const BREAK_GLASS = 'break-glass-admin@e2e.sutura.test';

test.describe.configure({ mode: 'serial' });
// The spec's pages go to its own SSO-only server, not to the usual server of a spec.
// eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from its first parameter
test.use({ baseURL: async ({}, use) => use(state.server?.url) });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const [port, pscPort, chuPort] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${port}`;
  const back = (id: string) => ({
    redirectUri: `${publicUrl}/v1/auth/sso/${id}/callback`,
    postLogoutRedirectUri: `${publicUrl}/auth/login`,
  });
  const psc = (state.psc = await startTestProvider({ flavour: 'psc', port: pscPort, ...back('psc') }));
  const chu = (state.chu = await startTestProvider({ flavour: 'keycloak', port: chuPort, ...back('chu') }));
  state.server = await startServer({
    label: 'oidc',
    template: process.env.E2E_TEMPLATE_DIR,
    env: {
      PORT: String(port),
      // SSO-only: the providers sign everyone in, a password only the break-glass administrator.
      SSO_ONLY: 'on',
      SSO_BREAK_GLASS_EMAIL: BREAK_GLASS,
      OIDC_PROVIDERS: JSON.stringify([
        {
          id: 'psc',
          preset: 'psc',
          name: { fr: 'Pro Santé Connect', en: 'Pro Santé Connect' },
          issuer: psc.issuer,
          clientId: psc.clientId,
          clientSecret: psc.clientSecret,
        },
        {
          id: 'chu',
          name: { fr: 'CHU Exemple', en: 'Example Hospital' },
          issuer: chu.issuer,
          clientId: chu.clientId,
          clientSecret: chu.clientSecret,
          scopes: 'openid email profile groups',
          roles: { claim: 'groups', map: { 'sutura-admins': ['administrator'], 'sutura-experts': ['expert'] } },
        },
      ]),
    },
  });
  const request = await apiRequest.newContext({ baseURL: publicUrl });
  const made = await people(request, {
    admin: { roles: ['administrator'], firstName: 'Nadia', lastName: 'Lefèvre', email: BREAK_GLASS },
    learner: { roles: ['learner'] },
  });
  await request.dispose();
  state.breakGlass = made.admin;
  state.learner = made.learner;
  // The first sign-in with each provider reads its metadata and keys: done once here, so that the
  // clicks below wait only for the round trip (the machine running the tests may be busy).
  for (const id of ['psc', 'chu']) await fetch(`${publicUrl}/v1/auth/sso/${id}/start`, { redirect: 'manual' });
});

test.afterAll(async () => {
  await state.server?.stop();
  await state.psc?.close();
  await state.chu?.close();
});

async function acceptConditions(page: Page) {
  await page.getByRole('checkbox', { name: /J'accepte les/ }).check();
  await page.getByRole('checkbox', { name: /J'accepte la/ }).check();
}

test('Pro Santé Connect: the first sign-in creates the account, the next signs in, signing out ends the provider session', async ({
  page,
}) => {
  state.psc!.accounts.set('psc-helene', pscClaims('10999901019'));
  state.psc!.nextAccount = 'psc-helene';
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Se connecter avec Pro Santé Connect' }).click({ timeout: 45_000 });

  // Back from the provider: the directory's names, only the missing email, the specialty and consent asked.
  await expect(page).toHaveURL(/\/auth\/sso$/);
  await expect(page.getByRole('heading', { name: 'Bienvenue, Hélène LEFÈVRE-DURAND' })).toBeVisible();
  await expect(page.getByText('Numéro RPPS : 10999901019')).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Mot de passe/ })).toHaveCount(0);

  // At 390 px, in dark mode: readable and axe-clean.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page.getByText('Ce champ est obligatoire').first()).toBeVisible();
  await page.getByRole('textbox', { name: /Adresse e-mail/ }).fill('helene.lefevre@chu-exemple.fr');
  await chooseOption(page, /Spécialité/, /.+/);
  await acceptConditions(page);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  // The identity in Account.
  await page.goto('/my-account');
  const identity = page.getByTestId('identities').getByTestId('identity');
  await expect(identity).toContainText('Pro Santé Connect');
  await expect(identity).toContainText('10999901019');

  // Signing out also ends the provider's session (RP-initiated logout), then back to sign-in.
  await page.goto('/auth/logout');
  await expect(page).toHaveURL(`${state.server!.url}/auth/login`, { timeout: 20_000 });

  // The second sign-in goes straight to the dashboard.
  await page.getByRole('link', { name: 'Se connecter avec Pro Santé Connect' }).click({ timeout: 45_000 });
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the hospital's provider: roles from its groups, shown to administrators with the person's identities", async ({ page }) => {
  state.chu!.accounts.set('kc-nadia', {
    email: 'n.admin@chu-exemple.fr',
    email_verified: true,
    given_name: 'Noor',
    family_name: 'Admin',
    groups: ['sutura-admins'],
  });
  state.chu!.nextAccount = 'kc-nadia';
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Se connecter avec CHU Exemple' }).click({ timeout: 45_000 });
  await expect(page).toHaveURL(/\/auth\/sso$/);
  await expect(page.getByText('Votre adresse e-mail : n.admin@chu-exemple.fr')).toBeVisible();
  await chooseOption(page, /Spécialité/, /.+/);
  await acceptConditions(page);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);

  await page.goto('/admin/users?q=n.admin');
  const summary = page.getByTestId('sso-summary');
  await expect(summary.getByText('CHU Exemple')).toBeVisible();
  await expect(summary.getByText('groups « sutura-admins » donne')).toBeVisible();
  const card = page.getByTestId('admin-user').filter({ hasText: 'n.admin@chu-exemple.fr' });
  await card.getByTestId('admin-user-identities').click();
  await expect(card.getByTestId('admin-user-identity-list')).toContainText('CHU Exemple · n.admin@chu-exemple.fr');
  await expect(card.getByTestId('admin-user-role-administrator')).toBeVisible();
});

test('a refusal tells the person why, in their language, and creates nothing', async ({ page }) => {
  state.psc!.accounts.set('psc-unknown', pscClaims('10999999998'));
  state.psc!.nextAccount = 'psc-unknown';
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Se connecter avec Pro Santé Connect' }).click({ timeout: 45_000 });
  await expect(page).toHaveURL(/\/auth\/login\?sso_error=SSO_RPPS_UNKNOWN$/);
  await expect(page.getByTestId('sso-error')).toHaveText(
    "Votre numéro RPPS ne figure pas dans l'annuaire des professionnels de santé connu de Sutura : contactez les administrateurs",
  );
});

test('SSO-only: no password form nor sign-up, but the break-glass administrator still signs in with a password', async ({ page }) => {
  await page.goto('/auth/login');
  await expect(page.getByRole('link', { name: 'Se connecter avec CHU Exemple' })).toBeVisible();
  await expect(page.getByLabel(/^Mot de passe/)).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Créer un compte' })).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await page.getByRole('button', { name: 'Administrateur de secours : connexion par mot de passe' }).click();
  await page.getByRole('textbox', { name: /^Adresse e-mail/ }).fill(state.learner!.email);
  await page
    .getByLabel(/^Mot de passe/)
    .first()
    .fill('sutura2026');
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'La connexion par mot de passe est désactivée ici : utilisez le service de connexion de votre établissement',
  );
  await page.getByRole('textbox', { name: /^Adresse e-mail/ }).fill(state.breakGlass!.email);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});
