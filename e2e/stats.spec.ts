import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { checkScreen, overlappingTexts, settle, THEMES } from './screens.ts';
import { chooseOption, signIn } from './support.ts';
import { apiToken, makeClip, sendVideo } from './workflow.ts';

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A learner with no analysed case: every series of the radar says it has too little data, and the
// tables still name every series.
test('a learner opens the statistics and reads the radar and its comparison series in French and in English', async ({ page, cast }) => {
  await signIn(page, cast.learner.email, cast.learner.password);
  await page.getByRole('link', { name: 'Mes statistiques' }).first().click();
  await expect(page).toHaveURL(/\/my-stats$/);
  await expect(page.getByRole('tab', { name: 'Vue d’ensemble' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('stats-radar').locator('svg').first()).toBeVisible();
  const table = page.getByTestId('stats-radar-table');
  for (const series of ['Chirurgien moyen', 'Moi aujourd’hui', 'Moi il y a 1 mois', 'Moi il y a 3 mois', 'Moi il y a 6 mois']) {
    await expect(table.getByRole('rowheader', { name: series })).toBeVisible();
  }
  await expect(page.getByTestId('stats-too-little')).toContainText('Trop peu de données');
  // The average surgeon is said to be surgeon by surgeon, and the table counts its surgeons.
  await expect(page.getByText(/moyenne des moyennes de chaque chirurgien/)).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Chirurgiens' })).toBeVisible();
  await page.getByTestId('compare-specialty').click();
  await expect(table.getByRole('rowheader', { name: 'Chirurgien moyen de ma spécialité' })).toBeVisible();

  // The skills in detail: each KPI and the global rating over twelve months, as a table too.
  await page.getByRole('tab', { name: 'Compétences en détail' }).click();
  await expect(page).toHaveURL(/\/my-stats\?tab=kpis$/);
  const months = page.getByTestId('stats-timeline-table');
  await expect(months.getByRole('columnheader', { name: 'Note globale' })).toBeVisible();
  await expect(months.locator('tbody tr')).toHaveCount(12);

  await page.getByRole('tab', { name: 'Vue d’ensemble' }).click();
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(table.getByRole('rowheader', { name: 'Average surgeon of my specialty' })).toBeVisible();
  await expect(table.getByRole('rowheader', { name: 'Me 6 months ago' })).toBeVisible();
  await expect(page.getByTestId('stats-too-little')).toContainText('Too little data');
  await expect(page.getByText(/mean of each surgeon’s own mean/)).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Surgeons' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Skills in detail' })).toBeVisible();
});

/** The editor's work through the API: keep the whole clip and mark two steps of the surgery's list; then wait for the render. */
async function prepareWithVocabulary(
  request: APIRequestContext,
  people: { editor: string; learner: string },
  videoId: string,
  stepIds: string[],
) {
  const headers = { Authorization: `Bearer ${await apiToken(request, people.editor)}` };
  const claim = await request.post(`/v1/editor/videos/${videoId}/claim`, { headers, data: {} });
  expect(claim.status(), await claim.text()).toBe(200);
  const { fencingToken } = ((await claim.json()) as { data: { fencingToken: number } }).data;
  const put = async (what: string, data: object) => {
    const response = await request.put(`/v1/editor/videos/${videoId}/${what}`, { headers, data: { fencingToken, ...data } });
    expect(response.status(), await response.text()).toBe(200);
  };
  await put('trims', { trims: [{ start: 0, end: 6 }] });
  await put('phase', { phase: 'steps' });
  await put('steps', {
    steps: [
      { surgeryStepId: stepIds[0], name: '', start: 0, end: 2 },
      { surgeryStepId: stepIds[1], name: '', start: 3, end: 4 },
    ],
  });
  const submit = await request.post(`/v1/editor/videos/${videoId}/submit`, { headers, data: { fencingToken } });
  expect(submit.status(), await submit.text()).toBe(200);
  const learnerHeaders = { Authorization: `Bearer ${await apiToken(request, people.learner)}` };
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/v1/videos/${videoId}`, { headers: learnerHeaders })).json()) as { data: { status: string } }).data
          .status,
      { timeout: 90_000 },
    )
    .toBe('pending_analysis');
}

async function checkEveryTheme(page: Page, name: string) {
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await settle(page);
    await checkScreen(page, `${name}-${theme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

// Two cases sent with the same NASA-TLX (the one of sendVideo: 60, 40, 50, 30, 70, 20, raw 45),
// each prepared with two steps of the surgery's list: 2 s and 1 s. They are the second learner's:
// the first one chose English in the test above.
test('the NASA-TLX and the step times tabs, against the average, with their tables, in both languages and at 390 px', async ({
  page,
  request,
  cast,
}) => {
  test.setTimeout(300_000);
  const learner = cast.learner2;
  const clip = path.join(tmpdir(), `sutura-stats-${Date.now()}.mp4`);
  makeClip(clip, 6);
  const surgeries = (await (await request.get('/v1/vocabularies/surgeries?langCode=fr')).json()) as {
    data: { id: string; name: string; organId: string | null; steps: { id: string; name: string }[] }[];
  };
  // The last surgery with an organ and two steps: the surgeon picks it in the step times tab.
  const surgery = surgeries.data.filter((s) => s.organId && s.steps.length >= 2).at(-1)!;
  for (let i = 0; i < 2; i++) {
    const videoId = await sendVideo(request, learner.email, clip, false, { surgery });
    await prepareWithVocabulary(
      request,
      { editor: cast.editor.email, learner: learner.email },
      videoId,
      surgery.steps.slice(0, 2).map((s) => s.id),
    );
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, learner.email, learner.password);
  await page.goto('/my-stats?tab=nasaTlx');
  await expect(page.getByRole('tab', { name: 'NASA-TLX' })).toHaveAttribute('aria-selected', 'true');
  const tlx = page.getByTestId('stats-tlx-table');
  await expect(tlx.getByRole('columnheader', { name: 'Moi aujourd’hui' })).toBeVisible();
  await expect(tlx.getByRole('columnheader', { name: 'Chirurgien moyen' })).toBeVisible();
  await expect(tlx.getByRole('row', { name: /^Exigence mentale 60 / })).toBeVisible();
  await expect(tlx.getByRole('row', { name: /^Score brut 45 / })).toBeVisible();
  await expect(page.getByTestId('stats-tlx-chart').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('stats-tlx-timeline').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('stats-tlx-timeline-table').locator('tbody tr')).toHaveCount(12);
  await page.getByTestId('compare-specialty').click();
  await expect(tlx.getByRole('columnheader', { name: 'Chirurgien moyen de ma spécialité' })).toBeVisible();
  await checkEveryTheme(page, 'stats-nasa-tlx-390');

  // The table's numbers as a CSV file, with French separators.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Exporter en CSV' }).first().click();
  const csv = await readFile((await (await download).path())!, 'utf8');
  expect((await download).suggestedFilename()).toBe('sutura-nasa-tlx.csv');
  expect(csv).toContain('Exigence mentale;60;');

  for (const tab of ['Vue d’ensemble', 'Compétences en détail']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByTestId(tab === 'Vue d’ensemble' ? 'stats-radar-table' : 'stats-timeline-table')).toBeVisible();
    await checkEveryTheme(page, `stats-${tab === 'Vue d’ensemble' ? 'overview' : 'kpis'}-390`);
  }

  await page.getByRole('tab', { name: 'Temps des étapes' }).click();
  await expect(page).toHaveURL(/tab=steps/);
  // The picker opens on the surgery of most of the learner's cases; the surgeon picks this one.
  await chooseOption(page, 'Intervention', surgery.name);
  await expect(page.getByRole('combobox', { name: 'Intervention' })).toContainText(surgery.name);
  const steps = page.getByTestId('stats-steps-table');
  await expect(steps.getByRole('row', { name: new RegExp(`^${literal(surgery.steps[0]!.name)} 2 s \\d+ `) })).toBeVisible();
  await expect(steps.getByRole('row', { name: new RegExp(`^${literal(surgery.steps[1]!.name)} 1 s \\d+ `) })).toBeVisible();
  await expect(page.getByTestId('stats-steps-chart').locator('svg').first()).toBeVisible();
  // Long step names stay inside their band of the chart (the table gives them whole).
  expect(await page.getByTestId('stats-steps-chart').getByTestId('stats-bars-category').count()).toBeGreaterThanOrEqual(2);
  expect(await overlappingTexts(page.getByTestId('stats-steps-chart').getByTestId('stats-bars-category'))).toEqual([]);
  // Per case: 3 s active of 6 (0–2 and 3–4), 3 s not (mine are these two cases).
  const cases = page.getByTestId('stats-case-table');
  await expect(cases.getByRole('row', { name: /^Moi \d+ \d+ s \d+ s \d+ s \d+ min$/ })).toBeVisible();
  await expect(cases.getByRole('rowheader', { name: 'Tous les cas' })).toBeVisible();
  await expect(page.getByTestId('stats-case-chart').locator('svg').first()).toBeVisible();
  await checkEveryTheme(page, 'stats-steps-390');

  // The link keeps the tab and the surgery; English names everything.
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Temps des étapes' })).toHaveAttribute('aria-selected', 'true');
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  await expect(page.getByRole('tab', { name: 'Step times' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('stats-case-table').getByRole('columnheader', { name: 'Non-active time' })).toBeVisible();
  await expect(page.getByTestId('stats-case-table').getByRole('rowheader', { name: 'Me' })).toBeVisible();
  await page.getByRole('tab', { name: 'NASA-TLX' }).click();
  await expect(page.getByTestId('stats-tlx-table').getByRole('row', { name: /^Mental demand 60 / })).toBeVisible();
  await expect(page.getByTestId('stats-tlx-table').getByRole('columnheader', { name: 'Me now' })).toBeVisible();
});
