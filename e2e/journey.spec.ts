import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { overlappingTexts } from './screens.ts';
import { chooseOption, playerState, signIn } from './support.ts';
import { analyseVideo, makeClip, password, prepareVideo, sendVideo, skipSelfAssessment } from './workflow.ts';

// The main loop of the release, end to end: an administrator adds a surgery and its steps in both
// languages, then a best case of it by upload, marks its steps and publishes it; a learner finds it
// by that surgery and watches it, then reads their statistics against the average and their past,
// in French and in English.

const tag = Date.now().toString(36);
const surgery = { fr: `Pyéloplastie robotique ${tag}`, en: `Robotic pyeloplasty ${tag}` };
const steps = [
  { fr: `Exposition de la jonction ${tag}`, en: `Junction exposure ${tag}` },
  { fr: `Anastomose ${tag}`, en: `Anastomosis ${tag}` },
];
const title = { fr: `Pyéloplastie exemplaire ${tag}`, en: `Model pyeloplasty ${tag}` };

const media = { dir: '', clip: '' };
test.beforeAll(() => {
  media.dir = mkdtempSync(path.join(tmpdir(), 'sutura-e2e-journey-'));
  media.clip = path.join(media.dir, 'pyeloplasty.mp4');
  makeClip(media.clip, 6);
});
test.afterAll(() => {
  if (media.dir) rmSync(media.dir, { recursive: true, force: true });
});

test('an administrator publishes a best case of a new surgery; a learner watches it, then reads the statistics in French and in English', async ({
  page,
  browser,
  request,
  cast,
}) => {
  test.setTimeout(180_000);
  const learner = cast.learner.email;
  // Before the learner reads their statistics: two of their cases prepared and analysed, by the
  // people before them through the API, while the administrator works; and one of another
  // surgeon's, since the average surgeon is drawn from two surgeons at least. Each learner skips
  // their self-assessment, as the statistics count a case only once its ratings reached them.
  const analysed = (async () => {
    for (const [author, rating] of [
      [learner, 3],
      [learner, 4],
      [cast.learner2.email, 3],
    ] as const) {
      const videoId = await sendVideo(request, author, media.clip);
      await prepareVideo(
        request,
        cast.editor.email,
        author,
        videoId,
        [
          { name: 'Exposition', start: 0, end: 3 },
          { name: 'Suture', start: 3, end: 6 },
        ],
        { start: 0, end: 6 },
      );
      await analyseVideo(request, cast.expert.email, videoId, rating);
      // The ratings reach the statistics once the learner has answered or skipped their self-assessment.
      await skipSelfAssessment(request, author, videoId);
    }
  })();
  analysed.catch(() => undefined);

  // The administrator: a surgery of the kidney and two of its steps, each in both languages.
  await signIn(page, cast.admin.email, password);
  await page.getByRole('link', { name: 'Administration' }).first().click();
  await expect(page).toHaveURL(/\/admin$/);
  await page.getByTestId('left-menu').getByRole('link', { name: 'Vocabulaires' }).click();
  await expect(page).toHaveURL(/\/admin\/vocabularies$/);
  // The menu marks the page itself, not the administration home as well.
  await expect(page.getByTestId('left-menu').locator('[aria-current="page"]')).toHaveText('Vocabulaires');
  await page.getByTestId('vocabulary-tab-surgeries').click();
  await page.getByTestId('vocabulary-surgeries-add').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('vocabulary-name-fr').fill(surgery.fr);
  await dialog.getByTestId('vocabulary-name-en').fill(surgery.en);
  await chooseOption(page, /^Organe/, /^Rein$/);
  await dialog.getByTestId('vocabulary-save').click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('vocabulary-surgeries-row').filter({ hasText: surgery.fr });
  await expect(row).toContainText(surgery.en);
  await row.getByTestId('surgery-steps-toggle').click();
  for (const step of steps) {
    await row.getByTestId('vocabulary-steps-add').click();
    await dialog.getByTestId('vocabulary-name-fr').fill(step.fr);
    await dialog.getByTestId('vocabulary-name-en').fill(step.en);
    await dialog.getByTestId('vocabulary-save').click();
    await expect(dialog).toBeHidden();
  }
  await expect(row.getByTestId('vocabulary-steps-row')).toHaveCount(2);
  await expect(row.getByTestId('vocabulary-steps-row').last()).toContainText(steps[1]!.en);

  // A best case of it, by upload: the video is sent and processed under the administrator's eyes.
  await page.goto('/admin/best-cases');
  await page.getByTestId('add-best-case').click();
  await expect(page).toHaveURL(/\/admin\/best-cases\/add$/);
  await page.getByTestId('best-case-file').setInputFiles(media.clip);
  await page.getByTestId('best-case-titleFr').fill(title.fr);
  await page.getByTestId('best-case-descriptionFr').fill('Exposition de la jonction puis anastomose sans tension.');
  await page.getByTestId('best-case-titleEn').fill(title.en);
  await page.getByTestId('best-case-descriptionEn').fill('Junction exposure, then a tension-free anastomosis.');
  await chooseOption(page, /^Chirurgie/, surgery.fr);
  await expect(page.getByRole('combobox', { name: /^Organe/ })).toHaveText('Rein');
  await page.getByTestId('best-case-submit').click();
  await expect(page).toHaveURL(/\/admin\/best-cases$/);
  const bestCase = page.getByTestId('admin-best-case').filter({ hasText: title.fr });
  await expect(bestCase.getByTestId('best-case-media-state')).toBeVisible();
  await expect(bestCase.getByRole('progressbar')).toBeVisible();
  const publish = bestCase.getByTestId('best-case-publish');
  await expect(publish).toBeEnabled({ timeout: 90_000 });
  await expect(bestCase.getByTestId('best-case-media-state')).toHaveCount(0);

  // Its two steps, from the new surgery's list, then published.
  await bestCase.getByTestId('best-case-steps').click();
  await dialog.getByTestId('best-case-add-step').click();
  await dialog.getByTestId('best-case-add-step').click();
  await expect(dialog.getByRole('combobox', { name: 'Étape 1' })).toHaveText(steps[0]!.fr);
  await expect(dialog.getByRole('combobox', { name: 'Étape 2' })).toHaveText(steps[1]!.fr);
  const starts = dialog.getByRole('textbox', { name: 'Début (m:ss)' });
  await starts.nth(0).fill('0:00');
  await starts.nth(1).fill('0:03');
  await dialog.getByTestId('best-case-save-steps').click();
  await expect(dialog).toBeHidden();
  await expect(bestCase.getByText('2 étapes')).toBeVisible();
  await publish.click();
  await expect(bestCase.getByTestId('best-case-visibility')).toHaveText('Visible des apprenants');

  // The learner finds it by its surgery, watches it and goes to a step with its chip.
  const context = await browser.newContext({ locale: 'fr-FR' });
  const learnerPage = await context.newPage();
  await signIn(learnerPage, learner, password);
  await learnerPage.getByRole('link', { name: 'Best cases' }).first().click();
  await expect(learnerPage).toHaveURL(/\/best-cases$/);
  await chooseOption(learnerPage, /^Chirurgie/, surgery.fr);
  await expect(learnerPage).toHaveURL(/surgery=/);
  const cards = learnerPage.getByTestId('best-case-card');
  await expect(cards).toHaveCount(1);
  await expect(cards).toContainText(title.fr);
  await expect(cards).toContainText('Rein');
  await cards.click();
  await expect(learnerPage).toHaveURL(/\/best-cases\/[0-9a-f-]{36}$/);
  await expect(learnerPage.getByTestId('best-case-heading')).toHaveText(title.fr);
  await learnerPage.getByTestId('player-play').click();
  await expect.poll(async () => (await playerState(learnerPage)).time, { timeout: 20_000 }).toBeGreaterThan(0.5);
  await learnerPage.getByTestId('player-play').click();
  const chips = learnerPage.getByTestId('player-step');
  await expect(chips).toHaveCount(2);
  await expect(chips.nth(1)).toContainText(steps[1]!.fr);
  await chips.nth(1).click();
  await expect.poll(async () => Math.round((await playerState(learnerPage)).time)).toBe(3);
  await expect(chips.nth(1)).toHaveAttribute('aria-current', 'step');

  // Their statistics: the radar against the average surgeon and their own past, in French…
  await analysed;
  await learnerPage.getByRole('link', { name: 'Mes statistiques' }).first().click();
  await expect(learnerPage).toHaveURL(/\/my-stats$/);
  const legend = learnerPage.getByTestId('stats-radar').locator('.recharts-legend-item-text');
  await expect(legend.filter({ hasText: /^Moi aujourd’hui$/ })).toHaveCount(1);
  await expect(legend.filter({ hasText: /^Chirurgien moyen$/ })).toHaveCount(1);
  // The scale of the radar stays clear of the skills' names.
  const radar = learnerPage.getByTestId('stats-radar');
  const skills = radar.locator('.recharts-polar-angle-axis-tick text');
  await expect(skills).toHaveCount(5);
  expect(await overlappingTexts(radar.locator('.recharts-polar-radius-axis-tick text'), skills)).toEqual([]);
  const table = learnerPage.getByTestId('stats-radar-table');
  // The series drawn carry their number of analyses (and of surgeons for the average) and a rating
  // for every skill; the past months say they have too few analyses.
  await expect(table.getByRole('row', { name: /^Moi aujourd’hui \d+ —( \d(,\d)?){5}$/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^Chirurgien moyen \d+ \d+( \d(,\d)?){5}$/ })).toBeVisible();
  for (const months of ['1 mois', '3 mois', '6 mois']) {
    await expect(table.getByRole('rowheader', { name: `Moi il y a ${months}` })).toBeVisible();
    await expect(learnerPage.getByTestId('stats-too-little')).toContainText(`Moi il y a ${months}`);
  }

  // … and the same in English.
  await learnerPage.getByTestId('language-switcher').click();
  await learnerPage.getByRole('menuitem', { name: 'English' }).click();
  await expect(learnerPage.locator('html')).toHaveAttribute('lang', 'en');
  await expect(legend.filter({ hasText: /^Me now$/ })).toHaveCount(1);
  await expect(legend.filter({ hasText: /^Average surgeon$/ })).toHaveCount(1);
  await expect(table.getByRole('row', { name: /^Me now \d+ —( \d(\.\d)?){5}$/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^Average surgeon \d+ \d+( \d(\.\d)?){5}$/ })).toBeVisible();
  for (const months of ['1 month', '3 months', '6 months']) {
    await expect(table.getByRole('rowheader', { name: `Me ${months} ago` })).toBeVisible();
    await expect(learnerPage.getByTestId('stats-too-little')).toContainText(`Me ${months} ago`);
  }
  await context.close();
});
