import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { chooseOption, field, signIn } from './support.ts';

const password = 'sutura2026';

test.describe.configure({ mode: 'serial' });

/** How many mails the running server wrote to an address. */
async function mailsTo(address: string): Promise<number> {
  const outbox = path.join(process.env.E2E_DATA_DIR!, 'outbox');
  const safe = address.replace(/[^a-zA-Z0-9@._-]/g, '_');
  return (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith(`-${safe}.eml`)).length;
}

/** A case made through the API, as another device of the learner would. */
async function apiCase(baseURL: string, email: string, overrides: Record<string, unknown> = {}): Promise<string> {
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(new URL(url, baseURL), {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return (await res.json()) as { data: never };
  };
  const { token } = (await call('POST', '/v1/auth', undefined, { email, password })).data as { token: string };
  const surgeries = (await call('GET', '/v1/vocabularies/surgeries?langCode=fr')).data as {
    id: string;
    organId: string | null;
    steps: { id: string }[];
  }[];
  const surgery = surgeries.find((s) => s.organId && s.steps.length >= 2)!;
  const keySteps = surgery.steps.slice(0, 2).map((s) => s.id);
  const video = (
    await call('POST', '/v1/videos', token, {
      kind: 'video',
      surgeryId: surgery.id,
      organId: surgery.organId,
      keyStepIds: keySteps,
      equipmentBrand: 'Intuitive',
      equipmentUsed: 'Quatre bras',
      ageRange: '45_59',
      patientSex: 'man',
      bmi: 'under_30',
      complication: false,
      radiationHistory: false,
      medicalBackground: [],
      mainHand: 'right',
      surgeryDuration: 120,
      messageToProctor: 'La dissection, merci.',
      nasaTlx: { mentalDemand: 60, physicalDemand: 40, temporalDemand: 50, performance: 30, effort: 55, frustration: 20 },
      ...overrides,
    })
  ).data as { id: string };
  return video.id;
}

async function doubleClick(page: Page, testId: string) {
  // Two clicks as fast as a person's double click: the second must change nothing.
  await page.getByTestId(testId).dblclick();
}

test('a double click sends one contact message, and the toast leaves the header visible', async ({ page, cast }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, cast.learner2.email, password);
  await page.goto('/settings/contact');
  await chooseOption(page, /Objet/, /Question/);
  const message = page.getByTestId('contact-message');
  // Long texts show their length and are refused, never cut.
  await message.fill('x'.repeat(5200));
  await expect(message).toHaveValue('x'.repeat(5200));
  await expect(page.getByTestId('message-counter')).toContainText('5200 /');
  await expect(page.getByText('Ce texte est trop long')).toBeVisible();
  // A message of its own: the server sends the same message only once in ten minutes (a retry of this test too).
  await message.fill(`Bonjour, une question sur les statistiques (${Date.now()}).`);
  const before = await mailsTo('support@sutura.local');
  await doubleClick(page, 'contact-submit');
  const toast = page
    .getByRole('alert')
    .filter({ hasText: /envoyé/ })
    .first();
  await expect(toast).toBeVisible();
  const header = await page.locator('header').first().boundingBox();
  const toastBox = await toast.boundingBox();
  expect(toastBox!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  await expect.poll(() => mailsTo('support@sutura.local')).toBe(before + 1);
  await page.waitForTimeout(1500);
  expect(await mailsTo('support@sutura.local')).toBe(before + 1);
});

test('a double click deletes a case once, with no error', async ({ page, baseURL, cast }) => {
  const id = await apiCase(baseURL!, cast.learner2.email);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.learner2.email, password);
  await page.goto(`/videos/${id}`);
  await page.getByTestId('delete-video').click();
  await doubleClick(page, 'confirm-delete');
  await expect(page).toHaveURL(/\/videos$/);
  await expect(
    page
      .getByRole('alert')
      .filter({ hasText: /supprimé/ })
      .first(),
  ).toBeVisible();
  await expect(page.getByText("Cette page ou cet élément n'existe pas")).toHaveCount(0);
  await expect(page.getByText('Une erreur est survenue')).toHaveCount(0);
});

test('cards tell cases apart: date and time, key steps; the case form marks what it needs and says why it refuses', async ({
  page,
  baseURL,
  cast,
}) => {
  await apiCase(baseURL!, cast.learner2.email, { surgeryDuration: 45 });
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.learner2.email, password);
  await page.goto('/videos');
  const card = page.getByTestId('video-card').first();
  await expect(card).toContainText(/Ajoutée le .* \d{2}:\d{2}/);
  await expect(card.getByTestId('card-key-steps')).toContainText('Étapes clés :');

  // Dates in French, and an end before the start said as such.
  const from = page.getByTestId('filter-from');
  await expect(from).toContainText('JJ/MM/AAAA');
  await from.click();
  await page.keyboard.type('10032026');
  // The year applies once whole: the field keeps the caret through 0202 on the way to 2026.
  await expect(page).toHaveURL(/[?&]from=2026-03-10(&|$)/);
  await expect(from).toContainText('2026');
  const to = page.getByTestId('filter-to');
  await to.click();
  await page.keyboard.type('01032026');
  await expect(to).toContainText('2026');
  await expect(page.getByText('La date de fin doit être identique ou postérieure à la date de début')).toBeVisible();
  await expect(page).not.toHaveURL(/[?&]to=/);
  // Cleared, the range is gone from the fields and the address alike.
  await page.getByRole('button', { name: 'Effacer les filtres' }).click();
  await expect(page).not.toHaveURL(/[?&]from=/);
  await expect(from).toContainText('JJ/MM/AAAA');
  await expect(to).toContainText('JJ/MM/AAAA');
  await expect(page.getByText('La date de fin doit être identique ou postérieure à la date de début')).toHaveCount(0);

  await page.goto('/videos/add');
  for (const group of ['Main dominante', 'Sexe du patient', 'IMC du patient', 'Complication', 'Antécédent de radiothérapie']) {
    await expect(page.getByRole('radiogroup', { name: group })).toBeVisible();
    await expect(page.locator('label', { hasText: group }).locator('.MuiFormLabel-asterisk')).toHaveCount(1);
  }
  // The NASA-TLX scales show no value before they are rated.
  await expect(page.getByTestId('tlx-mentalDemand').locator('.MuiSlider-thumb')).toHaveCSS('opacity', '0');
  const brand = page.getByTestId('equipment-brand');
  await brand.fill('b'.repeat(3000));
  await expect(brand).toHaveValue('b'.repeat(3000));
  await expect(page.getByTestId('equipmentBrand-counter')).toHaveText('3000 / 100 caractères');
  await page.getByTestId('surgery-duration').fill('0');
  await page.getByTestId('submit-video').click();
  await expect(page.getByText("La durée doit être d'au moins 1 minute")).toBeVisible();
  await expect(page.getByText('Ce texte est trop long').first()).toBeVisible();
});

test('each role sees its own product: a page it may not open says so, editors see only what is shared with them', async ({
  page,
  cast,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.admin.email, password);
  // Administrators see which legal settings the installation lacks.
  // One sentence says what is missing and where the guide is; the settings' names come on demand.
  const legal = page.getByTestId('legal-settings-missing');
  await expect(legal.getByTestId('legal-settings-missing-text')).toContainText('non communiqué');
  await expect(legal.getByTestId('legal-settings-missing-guide')).toContainText('docs/configuration.md');
  await expect(legal.getByRole('link', { name: "Voir les mentions légales telles qu'elles s'affichent" })).toHaveAttribute(
    'href',
    '/settings/legal-notice',
  );
  await expect(legal.getByTestId('legal-settings-missing-names')).toBeHidden();
  await legal.getByTestId('legal-settings-missing-toggle').click();
  await expect(legal.getByTestId('legal-settings-missing-names')).toContainText('LEGAL_OPERATOR_NAME');
  await expect(legal.getByTestId('legal-settings-missing-names')).toBeVisible();
  await page.goto('/videos');
  await expect(page.getByTestId('not-allowed')).toContainText('Page non disponible');
  await page.goto('/auth/logout');
  // The server ends the session (its cookie) before the sign-in page shows.
  await expect(page).toHaveURL(/\/auth\/login/);

  await signIn(page, cast.editor.email, password);
  await page.goto('/videos');
  await expect(page.getByTestId('video-tab-shared')).toBeVisible();
  await expect(page.getByTestId('video-tab-mine')).toHaveCount(0);
  await expect(page.getByText(/Les vidéos que vous ajoutez/)).toHaveCount(0);
  await page.goto('/videos/add');
  await expect(page.getByTestId('not-allowed')).toBeVisible();
  // The legal pages never show a bracketed blank to the people who read them.
  await page.goto('/settings/legal-notice');
  await expect(page.getByText(/non communiqué/).first()).toBeVisible();
  await expect(page.locator('main')).not.toContainText('[');
});

test('sign-up: a wrong RPPS check digit has its own message; the directory’s profession is in the reader’s language', async ({
  browser,
}) => {
  const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto('/auth/sign-up');
  await field(page, 'RPPS number').fill('10999901018');
  await field(page, 'Last name').fill('LEFÈVRE-DURAND');
  await field(page, 'First name').fill('Hélène');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('This RPPS number is not valid: check its digits').first()).toBeVisible();
  await field(page, 'RPPS number').fill('1099990101');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText('The RPPS number must contain 11 digits').first()).toBeVisible();
  await field(page, 'RPPS number').fill('10999901019');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText(/RPPS number checked: Hélène LEFÈVRE-DURAND, Physician/)).toBeVisible();
  await context.close();
});

test('after changing the password twice in a hurry, the person is still signed in on this device', async ({ page, request, cast }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, cast.learner.email, password);
  await page.goto('/my-account/edit-password');
  await page.getByTestId('current-password').fill(password);
  await page.getByTestId('new-password').fill('sutura2027');
  await page.getByTestId('confirm-password').fill('sutura2027');
  await doubleClick(page, 'edit-password-submit');
  await expect(page).toHaveURL(/\/my-account$/);
  await expect(page.getByText(/Votre session a expiré/)).toHaveCount(0);
  await page.reload();
  await expect(page).toHaveURL(/\/my-account$/);
  // The new password is the one that signs in now.
  const signInWith = (pass: string) => request.post('/v1/auth', { data: { email: cast.learner.email, password: pass } });
  expect((await signInWith(password)).status()).toBe(401);
  expect((await signInWith('sutura2027')).status()).toBe(200);
});

test('a double click saves the profile once', async ({ page, cast }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.learner2.email, password);
  await page.goto('/my-account');
  let saves = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().includes('/v1/users/profile/me')) saves++;
  });
  await page.getByRole('textbox', { name: /Ville/ }).fill('Grenoble');
  await doubleClick(page, 'profile-submit');
  await expect(page.getByText('Votre compte a bien été mis à jour').first()).toBeVisible();
  await page.reload();
  await expect(page.getByRole('textbox', { name: /Ville/ })).toHaveValue('Grenoble');
  expect(saves).toBe(1);
});
