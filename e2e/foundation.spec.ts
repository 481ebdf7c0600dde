import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures.ts';
import { chooseOption, codeFromOutbox, field, signIn } from './support.ts';

const person = { rpps: '10999901027', lastName: 'Marchand-Roux', firstName: 'Jean-François' };
const email = 'jf.marchand-roux@chu-exemple.fr';
const password = 'robotique2026';

test.describe.configure({ mode: 'serial' });

test('a surgeon signs up, validates the email, signs in, changes language and theme, gets a live notification and signs out', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await page.getByRole('link', { name: 'Créer un compte' }).click();

  // Step 1: identity, checked against the RPPS directory.
  await field(page, 'Numéro RPPS').fill(person.rpps);
  await field(page, 'Nom').fill(person.lastName);
  await field(page, 'Prénom').fill('Jean François');
  await page.getByRole('button', { name: 'Suivant' }).click();

  // Step 2: practice.
  await field(page, 'Pays').fill('France');
  await field(page, 'Ville de votre structure de soins').fill('Bordeaux');
  await page.getByRole('radio', { name: 'Publique' }).check();
  await field(page, 'Téléphone').fill('+33 556795679');
  await chooseOption(page, /Spécialité/, /Chirurgie viscérale/);
  await page.getByRole('button', { name: 'Suivant' }).click();

  // Step 3: experience; a wrong phone would have stopped us on step 2.
  await page.getByRole('spinbutton', { name: "Années d'exercice après l'internat" }).fill('12');
  await page.getByRole('spinbutton', { name: 'Années de chirurgie robotique' }).fill('4');
  await chooseOption(page, /Robot utilisé/, 'da Vinci Xi');
  await page.getByRole('button', { name: 'Suivant' }).click();

  // Step 4: account, with the terms and the privacy policy that must be accepted.
  await field(page, 'Adresse e-mail').fill(email);
  await page.getByLabel(/^Mot de passe/).fill(password);
  await page.getByLabel(/^Confirmation du mot de passe/).fill(password);
  await page.getByRole('button', { name: 'Créer mon compte' }).click();
  await expect(page.getByText('Vous devez accepter les conditions générales et la politique de confidentialité').first()).toBeVisible();
  await page.getByRole('checkbox').nth(0).check();
  await page.getByRole('checkbox').nth(1).check();
  await page.getByRole('button', { name: 'Créer mon compte' }).click();

  await expect(page).toHaveURL(/\/auth\/validate-email/);
  const code = await codeFromOutbox(email);
  await field(page, 'Code de validation (8 chiffres)').fill(code);
  await page.getByRole('button', { name: 'Valider mon e-mail' }).click();
  await expect(page.getByText('E-mail validé').first()).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/, { timeout: 15_000 });
  await expect(page.getByText(/Jean François/).first()).toBeVisible();

  // Sign out, then in again with the password chosen at sign-up.
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  await signIn(page, email, password);

  // Language: French to English, kept on the server.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboard' }).first()).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  // Theme: light to dark.
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const before = await background();
  await page.getByTestId('theme-toggle').click();
  await expect.poll(background).not.toBe(before);
  expect(await background()).toBe('rgb(21, 25, 24)');

  // A sign-in from another device reaches the open page live.
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-item').first()).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notification-dot')).toBeHidden();
  const login = await request.post('/v1/auth', {
    data: { email, password },
    headers: { 'user-agent': 'Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Safari/604.1' },
  });
  expect(login.ok()).toBe(true);
  await expect(page.getByTestId('notification-dot')).toBeVisible();

  // Opening the sidebar marks it read, one update per notification.
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/v1/notification/')) reads.push(r.url());
  });
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-item').filter({ hasText: 'New sign-in' })).toBeVisible();
  await expect(page.getByTestId('notification-dot')).toBeHidden();
  expect(reads.length).toBe(1);
  // API clients keep the Bearer token; the web app's session is an httpOnly cookie no script sees.
  const token = (await login.json()).data.token as string;
  const list = await request.get('/v1/notification/list', { headers: { authorization: `Bearer ${token}` } });
  expect(await page.evaluate(() => document.cookie)).not.toContain('sutura_session');
  expect((await page.context().cookies()).find((c) => c.name === 'sutura_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  expect((await list.json()).data.unread).toBe(0);
  await page.keyboard.press('Escape');

  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/auth\/login$/);
  expect(await page.evaluate(() => localStorage.getItem('userToken'))).toBeNull();
});

test('the menu is a drawer with a tab bar at 390 px, and fixed at 1440 px', async ({ page, cast }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, cast.learner.email, cast.learner.password);
  await expect(page.getByTestId('tab-bar')).toBeVisible();
  await expect(page.getByTestId('left-menu')).toBeHidden();
  await page.getByTestId('menu-toggle').click();
  await expect(page.getByTestId('left-menu')).toBeVisible();
  // The drawer closes on every route change.
  await page
    .getByTestId('left-menu')
    .getByRole('link', { name: /Paramètres/ })
    .click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByTestId('left-menu')).toBeHidden();

  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId('left-menu')).toBeVisible();
  await expect(page.getByTestId('tab-bar')).toBeHidden();
});

test('every menu entry of each role opens a working page', async ({ page, cast }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const account of [cast.learner, cast.editor, cast.expert, cast.admin, cast.copil]) {
    await signIn(page, account.email, account.password);
    const links = page.getByTestId('left-menu').getByRole('link');
    await expect(links.first()).toBeVisible();
    const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')!));
    expect(hrefs.length).toBeGreaterThan(0);
    for (const href of hrefs) {
      await page.goto(href);
      await expect(page.locator('main')).toBeVisible();
      await expect(page.getByText(/Page introuvable|Une erreur est survenue/)).toHaveCount(0);
    }
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/auth\/login$/);
  }
});

test('the login and sign-up pages pass the accessibility checks', async ({ page }) => {
  for (const path of ['/auth/login', '/auth/sign-up', '/auth/forgot-password']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }
});
