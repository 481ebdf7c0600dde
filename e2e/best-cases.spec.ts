import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, people, test } from './fixtures.ts';
import { checkScreen, settle } from './screens.ts';
import { chooseOption, playerState, signIn } from './support.ts';
import { analyseVideo, makeClip, password, prepareVideo, sendVideo } from './workflow.ts';

// One best case goes through the whole story: an administrator uploads it with its texts in both
// languages, marks its steps and publishes it; a learner finds it by its surgery and watches it;
// copil reads the administration without a single control that writes.
test.describe.configure({ mode: 'serial' });

const suffix = Date.now().toString(36);
const titleFr = `Pyéloplastie de référence ${suffix}`;
const titleEn = `Reference pyeloplasty ${suffix}`;
let clip: string;

test.beforeAll(() => {
  clip = path.join(mkdtempSync(path.join(tmpdir(), 'sutura-best-cases-')), 'pyeloplasty.mp4');
  makeClip(clip, 6);
});

test('an administrator adds a best case by upload, with both languages, marks its steps and publishes it (390 px, dark)', async ({
  page,
  cast,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, cast.admin.email, password);
  await page.goto('/admin/best-cases');
  await page.getByTestId('add-best-case').click();
  await expect(page).toHaveURL(/\/admin\/best-cases\/add$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ajouter un best case');
  await expect(page.getByRole('button', { name: 'Retour', exact: true })).toBeVisible();

  // Both languages are required: without the English texts nothing is created.
  await page.getByTestId('best-case-file').setInputFiles(clip);
  await expect(page.getByText(/pyeloplasty\.mp4/)).toBeVisible();
  await page.getByTestId('best-case-titleFr').fill(titleFr);
  await page.getByTestId('best-case-descriptionFr').fill('Exposition claire de la jonction et dissection soigneuse.');
  await chooseOption(page, /^Chirurgie/, 'Pyéloplastie');
  await expect(page.getByRole('combobox', { name: /^Organe/ })).toHaveText('Rein');
  await page.getByTestId('best-case-submit').click();
  await expect(page.getByTestId('best-case-titleEn')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/admin\/best-cases\/add$/);
  await checkScreen(page, 'best-cases-add-phone-dark');

  await page.getByTestId('best-case-titleEn').fill(titleEn);
  await page.getByTestId('best-case-descriptionEn').fill('Clear exposure of the junction and careful dissection.');
  await page.getByTestId('best-case-submit').click();
  await expect(page).toHaveURL(/\/admin\/best-cases$/);

  // The upload and the media pipeline run; the row follows them until the video is ready.
  const row = page.getByTestId('admin-best-case').filter({ hasText: titleFr });
  await expect(row).toBeVisible();
  await expect(row.getByText(titleEn)).toBeVisible();
  const publish = row.getByTestId('best-case-publish');
  await expect(publish).toBeEnabled({ timeout: 90_000 });
  await expect(row.getByTestId('best-case-visibility')).toHaveText('Non publié');

  // Two steps: where each starts.
  await row.getByTestId('best-case-steps').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('video-player')).toBeVisible();
  await dialog.getByTestId('best-case-add-step').click();
  await dialog.getByTestId('best-case-add-step').click();
  const starts = dialog.getByRole('textbox', { name: 'Début (m:ss)' });
  await starts.nth(0).fill('0:00');
  await starts.nth(1).fill('0:03');
  await dialog.getByTestId('best-case-save-steps').click();
  await expect(dialog).toBeHidden();
  await expect(row.getByText('2 étapes')).toBeVisible();

  await publish.click();
  await expect(row.getByTestId('best-case-visibility')).toHaveText('Visible des apprenants');
  await settle(page);
  await checkScreen(page, 'best-cases-admin-phone-dark');
});

test('a learner finds it by its surgery, watches it and seeks with a step, in French then in English', async ({ page, request }) => {
  // A learner of their own: they leave English on their account, and the next tests read in French.
  const { reader } = await people(request, { reader: { roles: ['learner'], firstName: 'Léa', lastName: 'Garnier' } });
  await signIn(page, reader.email, reader.password);
  await page.getByRole('link', { name: 'Best cases' }).first().click();
  await expect(page).toHaveURL(/\/best-cases$/);
  await chooseOption(page, /^Chirurgie/, 'Pyéloplastie');
  await expect(page).toHaveURL(/surgery=/);
  const card = page.getByTestId('best-case-card').filter({ hasText: titleFr });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Pyéloplastie');
  await expect(card).toContainText('Rein');
  await expect(card).toContainText('0:00:06');
  // Another surgery hides it.
  await chooseOption(page, /^Chirurgie/, 'Cholécystectomie');
  await expect(page.getByTestId('best-case-card').filter({ hasText: titleFr })).toHaveCount(0);
  await chooseOption(page, /^Chirurgie/, 'Pyéloplastie');

  await page.getByTestId('best-case-card').filter({ hasText: titleFr }).click();
  await expect(page).toHaveURL(/\/best-cases\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Best cases');
  await expect(page.getByRole('button', { name: 'Retour', exact: true })).toBeVisible();
  await expect(page.getByTestId('best-case-heading')).toHaveText(titleFr);
  await expect(page.getByTestId('best-case-description')).toContainText('dissection soigneuse');
  // Nothing of the author.
  await expect(page.getByText('Lefèvre')).toHaveCount(0);

  await page.getByTestId('player-play').click();
  await expect.poll(async () => (await playerState(page)).time, { timeout: 20_000 }).toBeGreaterThan(0.5);
  const steps = page.getByTestId('player-step');
  await expect(steps).toHaveCount(2);
  await page.getByTestId('player-play').click();
  await steps.nth(1).click();
  await expect.poll(async () => Math.round((await playerState(page)).time)).toBe(3);
  await expect(steps.nth(1)).toHaveAttribute('aria-current', 'step');

  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByTestId('best-case-heading')).toHaveText(titleEn);
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(page).toHaveURL(/\/best-cases\?/);
  await expect(page.getByTestId('best-case-card').filter({ hasText: titleEn })).toContainText('Pyeloplasty');
  await expect(page.getByRole('combobox', { name: /^Surgery/ })).toHaveText('Pyeloplasty');
});

test('a learner at 390 px reads the list and the best case without anything cut or overflowing', async ({ page, cast }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, cast.learner.email, password);
  await page.goto('/best-cases');
  await expect(page.getByTestId('best-case-card').filter({ hasText: titleFr })).toBeVisible();
  await settle(page);
  await checkScreen(page, 'best-cases-list-phone');
  await page.getByTestId('best-case-card').filter({ hasText: titleFr }).click();
  await expect(page.getByTestId('video-player')).toBeVisible();
  await settle(page);
  await checkScreen(page, 'best-cases-detail-phone');
});

test('copil opens the administration of best cases and finds no control that writes', async ({ page, cast }) => {
  await signIn(page, cast.copil.email, password);
  await page.goto('/admin/best-cases');
  const row = page.getByTestId('admin-best-case').filter({ hasText: titleFr });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('best-case-visibility')).toHaveText('Visible des apprenants');
  await expect(page.getByText(/seuls les administrateurs les publient, les modifient ou les suppriment/)).toBeVisible();
  await expect(page.getByText(/^Publiez, modifiez ou supprimez/)).toHaveCount(0);
  await expect(page.getByTestId('add-best-case')).toHaveCount(0);
  for (const control of ['best-case-publish', 'best-case-edit', 'best-case-steps', 'best-case-delete']) {
    await expect(page.getByTestId(control)).toHaveCount(0);
  }
  await expect(page.locator('main').getByRole('button')).toHaveCount(0);
  // The add page is not theirs either.
  await page.goto('/admin/best-cases/add');
  await expect(page.getByTestId('best-case-submit')).toHaveCount(0);
});

test('an analysed case becomes a best case only once its author accepts, and leaves when they withdraw', async ({
  page,
  browser,
  request,
  cast,
}) => {
  test.setTimeout(240_000);
  // The workflow before: a case of the second learner (Julien Moreau), prepared and analysed through the API.
  const author = cast.learner2.email;
  const videoId = await sendVideo(request, author, clip);
  await prepareVideo(
    request,
    cast.editor.email,
    author,
    videoId,
    [
      { name: 'Exposition', start: 0, end: 3 },
      { name: 'Dissection', start: 3, end: 6 },
    ],
    { start: 0, end: 6 },
  );
  await analyseVideo(request, cast.expert.email, videoId);

  // The administrator offers it from the case's page, writes the texts and publishes at once.
  const convertedFr = `Cas analysé exemplaire ${suffix}`;
  await signIn(page, cast.admin.email, password);
  await page.goto(`/videos/${videoId}`);
  await page.getByTestId('offer-best-case').click();
  await expect(page).toHaveURL(/\/admin\/best-cases\/add\?videoId=/);
  await expect(page.getByTestId('source-video')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('combobox', { name: /^Vidéo analysée/ })).not.toHaveText('');
  await page.getByTestId('best-case-titleFr').fill(convertedFr);
  await page.getByTestId('best-case-descriptionFr').fill('Un déroulé propre, étape par étape.');
  await page.getByTestId('best-case-titleEn').fill(`Model analysed case ${suffix}`);
  await page.getByTestId('best-case-descriptionEn').fill('A clean procedure, step by step.');
  await page.getByTestId('best-case-submit').click();
  await expect(page).toHaveURL(/\/admin\/best-cases$/);
  const row = page.getByTestId('admin-best-case').filter({ hasText: convertedFr });
  await expect(row).toContainText("En attente de l'auteur");
  await row.getByTestId('best-case-publish').click();
  await expect(row.getByTestId('best-case-visibility')).toHaveText('Publié, pas encore visible');

  // Learners do not see it yet.
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signIn(learner, cast.learner.email, password);
  await learner.goto('/best-cases');
  await expect(learner.getByTestId('best-case-card').filter({ hasText: titleFr })).toBeVisible();
  await expect(learner.getByTestId('best-case-card').filter({ hasText: convertedFr })).toHaveCount(0);

  // The author reads the request on their case page and accepts.
  const authorContext = await browser.newContext();
  const authorPage = await authorContext.newPage();
  await signIn(authorPage, author, password);
  await authorPage.goto(`/videos/${videoId}`);
  const panel = authorPage.getByTestId('best-case-request');
  await expect(panel).toContainText(convertedFr);
  await expect(panel).toContainText('Votre nom');
  await panel.getByTestId('best-case-accept').click();
  await expect(panel.getByTestId('best-case-decline')).toHaveText('Retirer mon accord');

  await learner.reload();
  const card = learner.getByTestId('best-case-card').filter({ hasText: convertedFr });
  await expect(card).toBeVisible();
  await card.click();
  await expect(learner.getByTestId('player-step')).toHaveCount(2);
  await expect(learner.getByText(/Julien|Moreau/)).toHaveCount(0);
  const address = learner.url();

  // Withdrawn: gone for learners at once.
  await panel.getByTestId('best-case-decline').click();
  await expect(panel.getByTestId('best-case-accept')).toBeVisible();
  await learner.goto(address);
  await expect(learner.getByTestId('best-case-not-found')).toBeVisible();
  await page.reload();
  await expect(row).toContainText("Accord retiré par l'auteur");
  await expect(row.getByTestId('best-case-visibility')).toHaveText('Non publié');
  await learnerContext.close();
  await authorContext.close();
});
