import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, type Cast } from './fixtures.ts';
import { checkScreen, settle } from './screens.ts';
import { expectFitsWidth, signIn } from './support.ts';
import { analyseVideo, apiToken, makeClip, password, prepareVideo, sendVideo } from './workflow.ts';

// The administrator's double review: the share of cases reviewed twice (default and per surgery),
// the flagged cases (marked discussed, a third review asked), and a case sent for a second review;
// at 1440 px and 390 px dark, in French then English; copil reads without a single action.
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };

interface Settings {
  secondReviewShare: number;
  surgeries: { id: string; name: string; secondReviewShare: number | null }[];
}

const cases = { discussed: '', third: '', second: '' };
let clip = '';
/** The spec's people (the cast fixture), kept for the helpers. */
let staff: Cast;

async function adminHeaders(request: APIRequestContext) {
  return { Authorization: `Bearer ${await apiToken(request, staff.admin.email)}` };
}

async function settings(request: APIRequestContext): Promise<Settings> {
  const res = await request.get('/v1/admin/review-settings?langCode=fr', { headers: await adminHeaders(request) });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { data: Settings }).data;
}

async function setDefaultShare(request: APIRequestContext, share: number) {
  const res = await request.put('/v1/admin/review-settings', { headers: await adminHeaders(request), data: { secondReviewShare: share } });
  expect(res.status(), await res.text()).toBe(200);
}

/** A case through upload and preparation, then reviewed by each expert in turn at their level. */
async function reviewedCase(request: APIRequestContext, reviews: [string, number][]): Promise<string> {
  const videoId = await sendVideo(request, staff.learner2.email, clip);
  await prepareVideo(
    request,
    staff.editor.email,
    staff.learner2.email,
    videoId,
    [
      { name: 'Exposition', start: 0, end: 3 },
      { name: 'Dissection', start: 3, end: 6 },
    ],
    { start: 0, end: 6 },
  );
  for (const [expert, level] of reviews) await analyseVideo(request, expert, videoId, level);
  return videoId;
}

async function videoStatus(request: APIRequestContext, videoId: string): Promise<string> {
  const headers = { Authorization: `Bearer ${await apiToken(request, staff.learner2.email)}` };
  return ((await (await request.get(`/v1/videos/${videoId}`, { headers })).json()) as { data: { status: string } }).data.status;
}

/** No serious or critical WCAG 2.2 A/AA violation on the page. */
async function axeClean(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.beforeAll(async ({ request, cast }) => {
  test.setTimeout(900_000);
  staff = cast;
  const [first, second] = [cast.expert.email, cast.expert2.email];
  clip = path.join(mkdtempSync(path.join(tmpdir(), 'sutura-double-review-')), 'case.mp4');
  makeClip(clip, 6);
  // A fresh installation reviews every case once.
  expect((await settings(request)).secondReviewShare).toBe(0);
  // Every case reviewed twice: two pairs of experts two levels apart on the five skills.
  await setDefaultShare(request, 100);
  cases.discussed = await reviewedCase(request, [
    [first, 2],
    [second, 4],
  ]);
  cases.third = await reviewedCase(request, [
    [first, 1],
    [second, 3],
  ]);
  // And one case reviewed once, to be sent for a second review.
  await setDefaultShare(request, 0);
  cases.second = await reviewedCase(request, [[first, 3]]);
  for (const id of Object.values(cases)) expect(await videoStatus(request, id)).toBe('analysed');
});

test('the administrator sets the default share and one surgery’s own, kept after a reload (1440 px, light, French)', async ({
  page,
  cast,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, cast.admin.email, password);
  await page.goto('/admin');
  const entry = page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Double relecture' });
  await expect(entry).toHaveAttribute('href', '/admin/double-review');
  await entry.click();
  await expect(page).toHaveURL(/\/admin\/double-review$/);
  await expect(page.getByTestId('review-default-current')).toHaveText('Actuellement : Jamais (0 %).');

  // A share drawn at random is strictly between never and always: nothing is sent.
  await page.getByTestId('review-default-drawn').check();
  const percent = page.getByTestId('review-default-percent');
  await percent.fill('100');
  await page.getByTestId('review-default-save').click();
  await expect(page.getByText('Une part tirée au sort est un nombre entier de 1 à 99')).toBeVisible();
  await expect(page.getByTestId('review-default-current')).toHaveText('Actuellement : Jamais (0 %).');

  await percent.fill('30');
  await page.getByTestId('review-default-save').click();
  await expect(page.getByText('Part par défaut enregistrée : 30 % des cas, tirés au sort.')).toBeVisible();
  await expect(page.getByTestId('review-default-current')).toHaveText('Actuellement : 30 % des cas, tirés au sort.');

  const row = page.getByTestId('review-surgery').first();
  const surgeryId = await row.getAttribute('data-surgery-id');
  await expect(row.getByTestId('review-surgery-share')).toHaveText('30 % des cas, tirés au sort');
  await row.getByTestId('review-surgery-edit').click();
  const dialog = page.getByTestId('surgery-share-dialog');
  await dialog.getByTestId('surgery-share-always').check();
  await dialog.getByTestId('surgery-share-save').click();
  await expect(dialog).toBeHidden();

  await page.reload();
  await expect(page.getByTestId('review-default-current')).toHaveText('Actuellement : 30 % des cas, tirés au sort.');
  await expect(page.getByTestId('review-default-drawn')).toBeChecked();
  await expect(page.getByTestId('review-default-percent')).toHaveValue('30');
  const saved = page.locator(`[data-testid="review-surgery"][data-surgery-id="${surgeryId}"]`);
  await expect(saved.getByTestId('review-surgery-share')).toHaveText('Toujours (100 %)');
  await expect(saved).toContainText('Part propre');
  // Another surgery still follows the default.
  await expect(page.getByTestId('review-surgery').nth(1)).toContainText('Suit la part par défaut');
  await settle(page);
  await checkScreen(page, 'admin-double-review-1440-light');
  await axeClean(page);

  // Back to the default, one click, kept too.
  await saved.getByTestId('review-surgery-reset').click();
  await expect(saved).toContainText('Suit la part par défaut');
  await page.reload();
  await expect(saved.getByTestId('review-surgery-share')).toHaveText('30 % des cas, tirés au sort');
  // The surgery gets its own share again for the rest of the run's checks.
  await saved.getByTestId('review-surgery-edit').click();
  await dialog.getByTestId('surgery-share-drawn').check();
  await dialog.getByTestId('surgery-share-percent').fill('55');
  await dialog.getByTestId('surgery-share-save').click();
  await expect(dialog).toBeHidden();
  await page.reload();
  await expect(saved.getByTestId('review-surgery-share')).toHaveText('55 % des cas, tirés au sort');
});

test('the administrator reads the flagged cases, marks one discussed, switches to English and asks a third review (390 px, dark)', async ({
  page,
  cast,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, cast.admin.email, password);
  await page.goto('/admin/disagreements?status=flagged');
  const discussed = page.locator(`[data-testid="disagreement"][data-video-id="${cases.discussed}"]`);
  await expect(discussed).toBeVisible({ timeout: 30_000 });
  await expect(discussed.getByTestId('disagreement-status')).toHaveText('Signalé');
  await expect(discussed.getByTestId('disagreement-gap')).toHaveText('2 niveaux');
  await expect(discussed.getByTestId('disagreement-item')).toHaveText([
    'Perception de la profondeur : 2 / 4',
    'Dextérité bimanuelle : 2 / 4',
    'Efficacité des mouvements : 2 / 4',
    'Manipulation des tissus : 2 / 4',
    'Autonomie : 2 / 4',
  ]);
  await expect(discussed.getByTestId('disagreement-case')).toHaveAttribute('href', `/videos/${cases.discussed}`);
  await expect(discussed.getByTestId('disagreement-case')).toContainText('Julien Moreau');
  await settle(page);
  await checkScreen(page, 'admin-disagreements-390-dark');
  await expectFitsWidth(page);
  await axeClean(page);

  // The note is required.
  await discussed.getByTestId('disagreement-discussed').click();
  const dialog = page.getByTestId('discussed-dialog');
  await dialog.getByTestId('discussed-confirm').click();
  await expect(dialog.getByText('Ce champ est obligatoire')).toBeVisible();
  await dialog.getByTestId('discussed-note').fill('Revu avec les deux experts : grille d’autonomie relue ensemble.');
  await dialog.getByTestId('discussed-confirm').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Le désaccord est marqué comme discuté.')).toBeVisible();
  // Filtered on flagged cases, it leaves the list; among the discussed ones it shows its note.
  await expect(discussed).toHaveCount(0);
  await page.getByTestId('disagreements-status').click();
  await page.getByRole('option', { name: 'Discuté' }).click();
  await expect(page).toHaveURL(/status=discussed/);
  await expect(discussed.getByTestId('disagreement-status')).toHaveText('Discuté');
  await expect(discussed.getByTestId('disagreement-note')).toHaveText('Revu avec les deux experts : grille d’autonomie relue ensemble.');
  await expect(discussed.getByTestId('disagreement-ask-third')).toHaveCount(0);
  await expect(discussed.getByTestId('disagreement-discussed')).toHaveCount(0);
  // By surgery: the case's own lists it; the flagged filter on top of it does not.
  const surgery = (await discussed.getByTestId('disagreement-surgery').textContent())!;
  await page.getByTestId('disagreements-surgery').click();
  await page.getByRole('option', { name: surgery, exact: true }).click();
  await expect(page).toHaveURL(/surgeryId=/);
  await expect(discussed).toBeVisible();
  await page.getByTestId('disagreements-status').click();
  await page.getByRole('option', { name: 'Signalé' }).click();
  await expect(page.locator(`[data-testid="disagreement"][data-video-id="${cases.third}"]`)).toBeVisible();
  await expect(discussed).toHaveCount(0);
  await page.getByTestId('disagreements-status').click();
  await page.getByRole('option', { name: 'Discuté' }).click();
  await expect(discussed).toBeVisible();

  // In English from here.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(discussed.getByTestId('disagreement-status')).toHaveText('Discussed');
  await expect(discussed.getByTestId('disagreement-item').last()).toHaveText('Autonomy: 2 / 4');

  await page.getByTestId('disagreements-status').click();
  await page.getByRole('option', { name: 'All statuses' }).click();
  const third = page.locator(`[data-testid="disagreement"][data-video-id="${cases.third}"]`);
  await expect(third.getByTestId('disagreement-item').last()).toHaveText('Autonomy: 1 / 3');
  await third.getByTestId('disagreement-ask-third').click();
  const confirm = page.getByRole('dialog', { name: 'Ask a third review?' });
  await expect(confirm).toContainText('Julien Moreau');
  // Asked once, whatever the clicks.
  await confirm.getByTestId('ask-third-confirm').dblclick();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('A third review is asked: the case waits for an expert.')).toBeVisible();
  await expect(third.getByTestId('disagreement-status')).toHaveText('Third review asked');
  await expect(third.getByTestId('disagreement-ask-third')).toHaveCount(0);
  await expect(third.getByTestId('disagreement-discussed')).toBeVisible();
  await settle(page);
  await checkScreen(page, 'admin-disagreements-390-dark-en');
  await expectFitsWidth(page);
  await axeClean(page);

  // The settings page too, in English, dark, at 390 px.
  await page.goto('/admin/double-review');
  await expect(page.getByTestId('review-default-current')).toHaveText('Now: 30 % of cases, drawn at random.');
  await settle(page);
  await checkScreen(page, 'admin-double-review-390-dark-en');
  await expectFitsWidth(page);
  await axeClean(page);
  await page.getByTestId('review-surgery-edit').first().click();
  await expect(page.getByTestId('surgery-share-dialog')).toBeVisible();
  await settle(page);
  await axeClean(page);
  await page.keyboard.press('Escape');
});

test('the administrator sends an analysed case for a second review from its page; it then waits for another expert', async ({
  page,
  request,
  cast,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, cast.admin.email, password);
  await page.goto(`/videos/${cases.second}`);
  // The case page's code is loaded for the first time here: on a busy machine it takes its time.
  await expect(page.getByTestId('video-status')).toHaveAttribute('data-status', 'analysed', { timeout: 30_000 });
  await page.getByTestId('send-second-review').click();
  const confirm = page.getByRole('dialog', { name: 'Send this case for a second review?' });
  await confirm.getByTestId('second-review-confirm').click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText('The case is sent for a second review: it waits for another expert.')).toBeVisible();
  await expect(page.getByTestId('video-status')).toHaveAttribute('data-status', 'pending_review');
  await expect(page.getByTestId('video-status')).toHaveText("Awaiting another expert's review");
  await expect(page.getByTestId('send-second-review')).toHaveCount(0);
  expect(await videoStatus(request, cases.second)).toBe('pending_review');
  await expectFitsWidth(page);

  // And back to French from the same menu.
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('copil reads the share and the flagged cases at 390 px and is offered no action', async ({ page, cast }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await signIn(page, cast.copil.email, password);
  await page.goto('/admin/double-review');
  const root = page.getByTestId('admin-page');
  await expect(page.getByTestId('review-default-current')).toHaveText('Actuellement : 30 % des cas, tirés au sort.');
  await expect(page.getByTestId('admin-read-only')).toBeVisible();
  await expect(page.getByTestId('review-surgery').first()).toBeVisible();
  await expect(root.locator('[data-write]')).toHaveCount(0);
  await expect(root.getByRole('radio')).toHaveCount(0);
  await expect(root.getByRole('textbox')).toHaveCount(0);
  await expect(root.getByRole('button')).toHaveCount(0);
  await expectFitsWidth(page);
  await axeClean(page);

  await page.goto('/admin/disagreements');
  await expect(page.locator(`[data-testid="disagreement"][data-video-id="${cases.discussed}"]`)).toBeVisible({ timeout: 30_000 });
  await expect(page.locator(`[data-testid="disagreement"][data-video-id="${cases.third}"]`)).toBeVisible();
  await expect(root.locator('[data-write]')).toHaveCount(0);
  await expect(root.getByTestId('disagreement-ask-third')).toHaveCount(0);
  await expect(root.getByTestId('disagreement-discussed')).toHaveCount(0);
  // The case is named, not linked: copil has no case page.
  await expect(root.getByRole('link')).toHaveCount(0);
  await expectFitsWidth(page);
  await axeClean(page);
});
