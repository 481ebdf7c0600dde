import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { layoutProblems } from './screens.ts';
import { signIn } from './support.ts';
import { apiToken, makeClip, password, sendVideo } from './workflow.ts';

const PHONE = { width: 390, height: 844 };

const media = { dir: '', clip: '' };
test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-catalog-'));
  media.clip = path.join(media.dir, 'case.mp4');
  makeClip(media.clip, 4);
});
test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

async function open(browser: Browser, email: string, colorScheme: 'light' | 'dark' = 'light') {
  const context = await browser.newContext({ viewport: PHONE, locale: 'fr-FR', colorScheme });
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

/** The page itself never scrolls sideways at 390 px (a wide table scrolls inside its frame), and no text is cut. */
async function expectNoPageOverflow(page: Page) {
  expect(await layoutProblems(page)).toEqual([]);
}

const unique = () => Math.random().toString(36).slice(2, 7);

test('an administrator adds a surgery step in both languages, moves it up, adds and retires an organ, at 390 px', async ({
  browser,
  cast,
}) => {
  const { context, page } = await open(browser, cast.admin.email, 'dark');
  await page.goto('/admin/vocabularies');
  await expect(page.getByTestId('vocabulary-organs-row').first()).toBeVisible();
  await expectNoPageOverflow(page);

  // A step of the first surgery, in French and in English.
  await page.getByTestId('vocabulary-tab-surgeries').click();
  const surgery = page.getByTestId('vocabulary-surgeries-row').first();
  await surgery.getByTestId('surgery-steps-toggle').click();
  const steps = surgery.getByTestId('vocabulary-steps');
  await expect(steps).toBeVisible();
  const before = await steps.getByTestId('vocabulary-steps-row').count();
  const fr = `Contrôle final ${unique()}`;
  const en = `Final check ${unique()}`;
  await surgery.getByTestId('vocabulary-steps-add').click();
  const dialog = page.getByRole('dialog');
  // Both names are required: an empty English name is refused on its field.
  await dialog.getByTestId('vocabulary-name-fr').fill(fr);
  await dialog.getByTestId('vocabulary-save').click();
  await expect(dialog.getByText('Ce champ est obligatoire')).toBeVisible();
  await dialog.getByTestId('vocabulary-name-en').fill(en);
  await dialog.getByTestId('vocabulary-save').click();
  await expect(dialog).toBeHidden();
  const rows = steps.getByTestId('vocabulary-steps-row');
  await expect(rows).toHaveCount(before + 1);
  await expect(rows.last()).toContainText(fr);
  await expect(rows.last()).toContainText(en);

  // Up with the keyboard: the focus stays on the moved step.
  const added = rows.last();
  const id = await added.getAttribute('data-term-id');
  await added.getByTestId('vocabulary-steps-up').focus();
  await page.keyboard.press('Enter');
  await expect(rows.nth(before - 1)).toHaveAttribute('data-term-id', id!);
  await expect(page.locator(`#vocabulary-steps-up-${id}`)).toBeFocused();
  await page.reload();
  await page.getByTestId('vocabulary-tab-surgeries').click();
  await page.getByTestId('vocabulary-surgeries-row').first().getByTestId('surgery-steps-toggle').click();
  await expect(page.getByTestId('vocabulary-steps-row').nth(before - 1)).toHaveAttribute('data-term-id', id!);
  // Unused: it may go for good.
  const moved = page.getByTestId('vocabulary-steps-row').nth(before - 1);
  await moved.getByTestId('vocabulary-steps-delete').click();
  await page.getByTestId('vocabulary-confirm-delete').click();
  await expect(page.getByTestId('vocabulary-steps-row')).toHaveCount(before);

  // A new organ with its icon, then retired: marked, still listed, no longer offered to the case form.
  await page.getByTestId('vocabulary-tab-organs').click();
  await page.getByTestId('vocabulary-organs-add').click();
  const organFr = `Testicule ${unique()}`;
  await page.getByTestId('vocabulary-name-fr').fill(organFr);
  await page.getByTestId('vocabulary-name-en').fill(`Testis ${unique()}`);
  await page.getByTestId('vocabulary-icon-ureter').click();
  await page.getByTestId('vocabulary-save').click();
  const organ = page.getByTestId('vocabulary-organs-row').filter({ hasText: organFr });
  await expect(organ).toBeVisible();
  await organ.getByTestId('vocabulary-organs-retire').click();
  await expect(organ).toHaveAttribute('data-retired', 'true');
  await expect(organ.getByTestId('vocabulary-organs-retired')).toHaveText('Retiré');
  const offered = (await (await page.request.get('/v1/vocabularies/organs')).json()) as { data: { name: string }[] };
  expect(offered.data.map((o) => o.name)).not.toContain(organFr);
  await expectNoPageOverflow(page);
  await context.close();
});

test('a surgery retired while a learner has a saved case of it: still a filter, kept by the edit dialog, gone from the upload form', async ({
  browser,
  request,
  cast,
}) => {
  test.setTimeout(120_000);
  const learner = cast.learner.email;
  const admin = { Authorization: `Bearer ${await apiToken(request, cast.admin.email)}` };
  const mine = { Authorization: `Bearer ${await apiToken(request, learner)}` };
  const created = async (url: string, data: object, headers = admin) => {
    const res = await request.post(url, { headers, data });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { data: { id: string } }).data.id;
  };
  const tag = unique();
  const names = { surgery: `Néphropexie ${tag}`, organ: `Rein ectopique ${tag}`, step: `Fixation du rein ${tag}` };
  const organId = await created('/v1/admin/vocabularies/organs', { nameFr: names.organ, nameEn: `Ectopic kidney ${tag}`, icon: 'kidney' });
  const surgeryId = await created('/v1/admin/vocabularies/surgeries', { nameFr: names.surgery, nameEn: `Nephropexy ${tag}`, organId });
  const stepId = await created(`/v1/admin/vocabularies/surgeries/${surgeryId}/steps`, {
    nameFr: names.step,
    nameEn: `Kidney fixation ${tag}`,
  });
  // The learner's saved case of it (not sent yet: it may still be edited).
  const videoId = await created(
    '/v1/videos',
    {
      kind: 'video',
      surgeryId,
      organId,
      keyStepIds: [stepId],
      equipmentBrand: 'Intuitive Surgical',
      equipmentUsed: 'da Vinci Xi',
      ageRange: '45_59',
      patientSex: 'woman',
      bmi: 'under_30',
      complication: false,
      surgicalHistory: '',
      radiationHistory: false,
      medicalBackground: [],
      mainHand: 'right',
      surgeryDuration: 80,
      messageToProctor: 'Merci de regarder la fixation.',
      nasaTlx: { mentalDemand: 50, physicalDemand: 40, temporalDemand: 50, performance: 30, effort: 60, frustration: 20 },
    },
    mine,
  );

  // The administrator retires the surgery on the vocabularies page; its organ is retired too.
  const { context: adminContext, page: adminPage } = await open(browser, cast.admin.email);
  await adminPage.goto('/admin/vocabularies');
  await adminPage.getByTestId('vocabulary-tab-surgeries').click();
  const row = adminPage.locator(`[data-testid="vocabulary-surgeries-row"][data-term-id="${surgeryId}"]`);
  await row.getByTestId('vocabulary-surgeries-retire').click();
  await expect(row).toHaveAttribute('data-retired', 'true');
  await adminContext.close();
  expect((await request.post(`/v1/admin/vocabularies/organs/${organId}/retire`, { headers: admin, data: {} })).status()).toBe(200);

  const { context, page } = await open(browser, learner, 'dark');
  // My videos: the filters still offer the retired surgery and organ, marked as such, and find the case.
  await page.goto('/videos');
  await page.getByRole('button', { name: 'Afficher les filtres' }).click();
  await page.getByRole('combobox', { name: 'Organe' }).click();
  await expect(page.getByRole('option', { name: `${names.organ} (retiré)` })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Chirurgie' }).click();
  await page.getByRole('option', { name: `${names.surgery} (retiré)` }).click();
  await expect(page).toHaveURL(new RegExp(`surgery=${surgeryId}`));
  await expect(page.getByTestId('video-card')).toHaveCount(1);
  await expect(page.locator(`[data-testid="video-card"][data-video-id="${videoId}"]`)).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Chirurgie' })).toHaveText(`${names.surgery} (retiré)`);
  await expectNoPageOverflow(page);

  // The case's edit dialog shows its surgery, organ and key step as they are, and saves them unchanged.
  await page.goto(`/videos/${videoId}`);
  await page.getByTestId('edit-video').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('combobox', { name: /^Intervention/ })).toHaveText(`${names.surgery} (retiré)`);
  await expect(dialog.getByRole('combobox', { name: /^Organe/ })).toHaveText(`${names.organ} (retiré)`);
  await expect(dialog.getByRole('combobox', { name: /Étapes clés à analyser/ })).toContainText(names.step);
  await expectNoPageOverflow(page);
  await dialog.getByTestId('equipment-brand').fill('Intuitive');
  await dialog.getByTestId('save-video').click();
  await expect(page.getByText('Le cas a bien été mis à jour.')).toBeVisible();
  const saved = (await (await request.get(`/v1/videos/${videoId}`, { headers: mine })).json()) as {
    data: { fields: { surgeryId: string; organId: string; keyStepIds: string[]; equipmentBrand: string } };
  };
  expect(saved.data.fields).toMatchObject({ surgeryId, organId, keyStepIds: [stepId], equipmentBrand: 'Intuitive' });

  // A new case is not offered the retired surgery.
  await page.goto('/videos/add');
  await page.getByRole('combobox', { name: /^Intervention/ }).click();
  await expect(page.getByRole('option', { name: 'Transplantation rénale' })).toBeVisible();
  await expect(page.getByRole('option', { name: names.surgery, exact: false })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await context.close();

  // The case deleted, the terms nothing uses any more may go for good.
  expect((await request.delete(`/v1/videos/${videoId}`, { headers: mine })).status()).toBe(200);
  expect((await request.delete(`/v1/admin/vocabularies/surgeries/${surgeryId}`, { headers: admin })).status()).toBe(200);
  expect((await request.delete(`/v1/admin/vocabularies/organs/${organId}`, { headers: admin })).status()).toBe(200);
});

test('a retired step keeps naming an editor’s draft step, and a retired specialty stays on its holder’s profile', async ({
  browser,
  request,
  cast,
}) => {
  test.setTimeout(180_000);
  const editor = cast.editor.email;
  const admin = { Authorization: `Bearer ${await apiToken(request, cast.admin.email)}` };
  const videoId = await sendVideo(request, cast.learner.email, media.clip);
  const editorHeaders = { Authorization: `Bearer ${await apiToken(request, editor)}` };
  const claim = await request.post(`/v1/editor/videos/${videoId}/claim`, { headers: editorHeaders, data: {} });
  expect(claim.status(), await claim.text()).toBe(200);
  const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
  const write = async (part: string, data: object) => {
    const res = await request.put(`/v1/editor/videos/${videoId}/${part}`, { headers: editorHeaders, data: { fencingToken, ...data } });
    expect(res.status(), await res.text()).toBe(200);
  };
  type Detail = { steps: { surgeryStepId: string | null; name: string }[]; vocabulary: { id: string; name: string }[] };
  const detail = async () =>
    ((await (await request.get(`/v1/editor/videos/${videoId}?langCode=fr`, { headers: editorHeaders })).json()) as { data: Detail }).data;
  const step = (await detail()).vocabulary[2]!;
  await write('trims', { trims: [{ start: 0, end: 4 }] });
  await write('phase', { phase: 'steps' });
  await write('steps', {
    steps: [
      { surgeryStepId: step.id, name: '', start: 0, end: 2 },
      { surgeryStepId: null, name: 'Fermeture', start: 2, end: 4 },
    ],
  });
  const retire = (kind: string, id: string, action: 'retire' | 'restore') =>
    request.post(`/v1/admin/vocabularies/${kind}/${id}/${action}`, { headers: admin, data: {} });
  expect((await retire('steps', step.id, 'retire')).status()).toBe(200);

  const { context: editorContext, page: editorPage } = await open(browser, editor);
  await editorPage.goto(`/editor/${videoId}`);
  const names = editorPage.getByTestId('step-name');
  // The retired step still names the first step; left unchanged, it keeps its link.
  await expect(names.first()).toHaveValue(step.name);
  await names.first().click();
  await expect(editorPage.getByRole('option', { name: step.name, exact: true })).toHaveCount(0);
  await names.nth(1).click();
  await editorPage.keyboard.press('Escape');
  await expect(names.first()).toHaveValue(step.name);
  expect((await detail()).steps[0]).toMatchObject({ surgeryStepId: step.id, name: step.name });
  await expectNoPageOverflow(editorPage);
  await editorContext.close();

  // A specialty retired while someone has it: their profile shows it and saves it.
  const expert = cast.expert.email;
  const expertHeaders = { Authorization: `Bearer ${await apiToken(request, expert)}` };
  type Profile = { data: { information: { firstName: string }; career: { specialty: { id: string } | null } } };
  const profile = async () => ((await (await request.get('/v1/users/profile/me', { headers: expertHeaders })).json()) as Profile).data;
  const original = await profile();
  const tag = unique();
  const created = await request.post('/v1/admin/vocabularies/specialties', {
    headers: admin,
    data: { nameFr: `Chirurgie robotique ${tag}`, nameEn: `Robotic surgery ${tag}` },
  });
  expect(created.status(), await created.text()).toBe(201);
  const specialtyId = ((await created.json()) as { data: { id: string } }).data.id;
  const chosen = await request.put('/v1/users/profile/me', { headers: expertHeaders, data: { career: { specialtyId } } });
  expect(chosen.status()).toBe(200);
  expect((await retire('specialties', specialtyId, 'retire')).status()).toBe(200);
  const { context, page } = await open(browser, expert, 'dark');
  await page.goto('/my-account');
  const select = page.getByRole('combobox', { name: /^Spécialité/ });
  await expect(select).toHaveText(`Chirurgie robotique ${tag} (retiré)`);
  await page.getByRole('textbox', { name: /^Prénom/ }).fill(`${original.information.firstName}-Élise`);
  await page.getByTestId('profile-submit').click();
  await expect(page.getByText('Votre compte a bien été mis à jour')).toBeVisible();
  expect((await profile()).career.specialty?.id).toBe(specialtyId);
  await expectNoPageOverflow(page);
  await context.close();
});

test('an administrator finds a held case by its status, ends the hold and deletes the case, at 390 px', async ({
  browser,
  request,
  cast,
}) => {
  test.setTimeout(180_000);
  const learner = cast.learner.email;
  const editor = cast.editor.email;
  const videoId = await sendVideo(request, learner, media.clip);
  // An editor holds it.
  const editorHeaders = { Authorization: `Bearer ${await apiToken(request, editor)}` };
  const claim = await request.post(`/v1/editor/videos/${videoId}/claim`, { headers: editorHeaders, data: {} });
  expect(claim.status(), await claim.text()).toBe(200);
  const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;

  const { context, page } = await open(browser, cast.admin.email);
  await page.goto('/admin/surgery-videos?status=in_preparation');
  await expect(page.getByTestId('surgery-videos-status')).toContainText('En cours de préparation');
  const row = page.locator(`[data-testid="surgery-video-row"][data-video-id="${videoId}"]`);
  await expect(row).toBeVisible();
  await expect(row.getByTestId('surgery-video-claim')).toContainText('Hugo Bernard');
  await expect(row.getByTestId('surgery-video-claim')).toContainText('jusqu');
  for (const status of await page.getByTestId('surgery-video-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')))) {
    expect(status).toBe('in_preparation');
  }
  await expectNoPageOverflow(page);

  await row.getByTestId('surgery-video-release').click();
  await expect(page.getByText('La réservation a pris fin')).toBeVisible();
  // Back in its pool: no longer in this filter; the editor's next write is refused.
  await expect(row).toBeHidden();
  const write = await request.put(`/v1/editor/videos/${videoId}/trims`, {
    headers: editorHeaders,
    data: { fencingToken, trims: [{ start: 0, end: 2 }] },
  });
  expect(write.status()).toBe(409);
  expect(((await write.json()) as { error: { code: string } }).error.code).toBe('LEASE_LOST');

  await page.goto('/admin/surgery-videos?status=pending_preparation');
  const pending = page.locator(`[data-testid="surgery-video-row"][data-video-id="${videoId}"]`);
  await expect(pending.getByTestId('surgery-video-claim')).toHaveText('Personne');
  await pending.getByTestId('surgery-video-delete').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('surgery-video-delete-name')).toContainText('Camille Martin');
  await dialog.getByTestId('surgery-video-confirm-delete').click();
  await expect(page.getByText('Le cas a été supprimé')).toBeVisible();
  await expect(pending).toBeHidden();
  const learnerHeaders = { Authorization: `Bearer ${await apiToken(request, learner)}` };
  expect((await request.get(`/v1/videos/${videoId}`, { headers: learnerHeaders })).status()).toBe(404);
  await context.close();
});

test('copil reads both pages and finds no control that writes, at 390 px', async ({ browser, cast }) => {
  const { context, page } = await open(browser, cast.copil.email, 'dark');
  await page.goto('/admin/vocabularies');
  await expect(page.getByTestId('vocabularies-read-only')).toBeVisible();
  await expect(page.getByTestId('vocabulary-organs-row').first()).toBeVisible();
  await page.getByTestId('vocabulary-tab-surgeries').click();
  await page.getByTestId('vocabulary-surgeries-row').first().getByTestId('surgery-steps-toggle').click();
  await expect(page.getByTestId('vocabulary-steps-row').first()).toBeVisible();
  const writes =
    '[data-testid$="-add"], [data-testid$="-up"], [data-testid$="-down"], [data-testid$="-edit"], [data-testid$="-retire"], [data-testid$="-restore"], [data-testid$="-delete"]';
  await expect(page.locator(writes)).toHaveCount(0);
  await expectNoPageOverflow(page);

  await page.goto('/admin/surgery-videos');
  await expect(page.getByTestId('surgery-videos-count').or(page.getByTestId('surgery-videos-empty'))).toBeVisible();
  // Told why the list has no actions, as on the other administration pages.
  await expect(page.getByTestId('admin-read-only')).toBeVisible();
  await expect(
    page.locator(
      '[data-testid^="surgery-video-"][data-testid$="release"], [data-testid="surgery-video-delete"], [data-testid="surgery-video-view"]',
    ),
  ).toHaveCount(0);
  // Nothing on either page is an enabled button but reading ones (tabs, filters, steps, pages).
  const enabled = await page
    .locator('main button:not([disabled])')
    .evaluateAll((buttons) =>
      buttons.map((b) => b.textContent ?? '').filter((text) => /supprimer|retirer|fin à la réservation|ajouter|renommer/i.test(text)),
    );
  expect(enabled).toEqual([]);

  // In English too.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('combobox', { name: 'Status' })).toBeVisible();
  await page.goto('/admin/vocabularies');
  await expect(page.getByTestId('vocabularies-read-only')).toHaveText('You can read these lists; only administrators change them.');
  await expect(page.getByRole('tab', { name: 'Specialties' })).toBeVisible();
  await expectNoPageOverflow(page);
  await context.close();
});
