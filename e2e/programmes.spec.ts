import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import pg from 'pg';
import pino from 'pino';
import { embeddedUrl, startEmbeddedServer } from '../apps/api/src/db/embedded-server.ts';
import { expect, people, test, type Person, type PersonSpec } from './fixtures.ts';
import { checkScreen, settle, THEMES, WCAG_TAGS } from './screens.ts';
import { signIn } from './support.ts';
import { apiToken } from './workflow.ts';

/**
 * A training programme of this spec's own people (docs/learning-curves.md): two directors (one
 * reading in French, one in English), a resident whose eleven pyeloplasties make a curve proficient
 * at the 9th case and relapsing at the 11th, and a resident still learning. Their analysed cases are
 * written into the server's own database (a fresh server has none without its videos), their
 * ratings released to them; the cohort's read model computes their curves at its first reading.
 */
const cast = {
  admin: { roles: ['administrator'], firstName: 'Nadia', lastName: 'Lefèvre' },
  directeur: { roles: ['expert'], firstName: 'Dora', lastName: 'Directrice', langCode: 'fr' },
  director: { roles: ['expert'], firstName: 'Dan', lastName: 'Director', langCode: 'en' },
  paul: { roles: ['learner'], firstName: 'Paul', lastName: 'Roux', langCode: 'fr' },
  emma: { roles: ['learner'], firstName: 'Emma', lastName: 'Faure' },
} satisfies Record<string, PersonSpec>;
let who: Record<keyof typeof cast, Person>;
let programmeId = '';

/** Nine successes, then two failures: proficient at the 9th, a relapse at the 11th (the 4th case reviewed twice: 3 and 4). */
const PAUL = [3, 4, 3, [3, 4], 4, 3, 3, 4, 3, 2, 2] as const;
const EMMA = [2, 3, 3] as const;

async function admin(request: APIRequestContext, method: 'post' | 'put', url: string, data: object) {
  const headers = { Authorization: `Bearer ${await apiToken(request, who.admin.email)}` };
  const res = await request[method](url, { headers, data });
  expect(res.status(), await res.text()).toBeLessThan(300);
  return ((await res.json()) as { data: { id: string } }).data;
}

test.beforeAll(async ({ request, server }) => {
  test.setTimeout(180_000);
  who = await people(request, cast);
  const programme = await admin(request, 'post', '/v1/admin/programmes', { name: 'Internes 2026', startsOn: '2026-01-05' });
  programmeId = programme.id;
  for (const p of [who.paul, who.emma]) await admin(request, 'post', `/v1/admin/programmes/${programmeId}/members`, { userId: p.id });
  for (const d of [who.directeur, who.director]) {
    await admin(request, 'post', `/v1/admin/programmes/${programmeId}/directors`, { userId: d.id });
  }

  const db = await startEmbeddedServer({ dir: path.join(server.dataDir, 'db'), log: pino({ level: 'silent' }), attach: true });
  const client = new pg.Client({ connectionString: embeddedUrl(db.connection) });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT id FROM surgeries WHERE code = 'pyeloplasty'`);
    const surgery = rows[0].id as string;
    const write = async (learner: Person, globals: readonly (number | readonly number[])[]) => {
      for (const [n, given] of globals.entries()) {
        const reviews = typeof given === 'number' ? [given] : given;
        const day = `2026-02-${String(n + 1).padStart(2, '0')}`;
        const { rows: made } = await client.query(
          `INSERT INTO videos (author_id, surgery_id, status, media_status, reviews_required, sent_at, operated_on, result_released_at)
           VALUES ($1, $2, 'analysed', 'ready', $3, $4::date + interval '1 day', $4, $4::date + interval '3 days') RETURNING id`,
          [learner.id, surgery, reviews.length, day],
        );
        const videoId = made[0].id as string;
        for (const [round, level] of reviews.entries()) {
          const kpis = Object.fromEntries(
            ['depthPerception', 'bimanualDexterity', 'efficiency', 'tissueHandling', 'autonomy'].map((k) => [k, level]),
          );
          await client.query(
            `INSERT INTO analyses (video_id, round, expert_id, status, kpi_ratings, global_rating, advice, submitted_at)
             VALUES ($1, $2, $3, 'submitted', $4, $5, $6, $7::date + interval '2 days')`,
            [
              videoId,
              round + 1,
              [who.directeur.id, who.director.id][round],
              JSON.stringify(kpis),
              level,
              `Conseil ${n + 1}.${round + 1}`,
              day,
            ],
          );
        }
        await client.query(`INSERT INTO self_assessments (video_id, author_id, skipped_at) VALUES ($1, $2, now())`, [videoId, learner.id]);
        await client.query(`UPDATE videos SET ratings_released_at = result_released_at WHERE id = $1`, [videoId]);
      }
    };
    await write(who.paul, PAUL);
    await write(who.emma, EMMA);
  } finally {
    await client.end();
    await db.stop();
  }
});

async function axeClean(page: Page, label: string) {
  const result = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('a director follows the cohort, sorts and filters it, exports it and reads a resident’s curves; the resident sees theirs', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await signIn(page, who.directeur.email, who.directeur.password);
  // The menu offers "Programmes" to the directors of a programme: the server's answer, not a role.
  const entry = page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Programmes' });
  await expect(entry).toHaveAttribute('href', '/programmes');
  await entry.click();
  // One programme: straight to its cohort.
  await expect(page).toHaveURL(new RegExp(`/programmes/${programmeId}$`));
  await expect(page.getByTestId('cohort-title')).toHaveText('Internes 2026', { timeout: 60_000 });
  const rows = page.getByTestId('cohort-row');
  await expect(rows).toHaveCount(2);
  const paul = rows.filter({ hasText: 'Paul Roux' });
  await expect(paul.getByTestId('curve-state')).toHaveText('Rechute · 11e');
  await expect(paul.locator('td').nth(1)).toHaveText('11');
  await expect(rows.filter({ hasText: 'Emma Faure' }).getByTestId('curve-state')).toHaveText('En apprentissage');

  // Sorted by state: who needs attention first, then the other way round.
  await page.getByTestId('cohort-sort-state').click();
  await expect(rows.first()).toContainText('Paul Roux');
  await page.getByTestId('cohort-sort-state').click();
  await expect(rows.first()).toContainText('Emma Faure');
  // Filtered by state.
  await page.getByRole('combobox', { name: 'État' }).click();
  await page.getByRole('option', { name: 'Rechute' }).click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByText('1 ligne')).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('cohort-csv').click();
  expect((await download).suggestedFilename()).toMatch(/^sutura-cohort-internes-2026-\d{4}-\d{2}-\d{2}\.csv$/);

  await paul.getByTestId('cohort-learner').click();
  await expect(page.getByTestId('learner-title')).toHaveText('Paul Roux', { timeout: 60_000 });
  await expect(page.getByTestId('curve-sentence')).toHaveText('11 cas de pyéloplastie analysés ; maîtrise au 9e, rechute au 11e');
  const table = page.getByTestId('curve-table');
  await expect(table.locator('tbody tr')).toHaveCount(11);
  // The case reviewed twice counts as the mean of its reviews (3 and 4).
  await expect(table.locator('tbody tr').nth(3).locator('td').nth(1)).toHaveText('3,5');
  await expect(table.locator('tbody tr').nth(8).locator('td').last()).toHaveText('maîtrise');
  await expect(table.locator('tbody tr').nth(10).locator('td').last()).toHaveText('inacceptable');
  await expect(page.getByTestId('curve-chart-cusum').locator('svg').first()).toBeVisible();
  await expect(page.getByTestId('learner-case')).toHaveCount(11);
  await expect(page.getByText('Conseil 4.2')).toBeVisible();

  // The resident: no "Programmes" entry; in Account, the programme and who directs it; in My statistics, their curve.
  await page.context().clearCookies();
  await signIn(page, who.paul.email, who.paul.password);
  await expect(page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Programmes' })).toHaveCount(0);
  await page.goto('/my-account');
  const mine = page.getByTestId('account-programme');
  await expect(mine).toContainText('Internes 2026', { timeout: 60_000 });
  await expect(mine).toContainText('Dirigé par Dan Director, Dora Directrice');
  await page.goto('/my-stats?tab=curves');
  await expect(page.getByTestId('curve-sentence')).toHaveText('11 cas de pyéloplastie analysés ; maîtrise au 9e, rechute au 11e', {
    timeout: 60_000,
  });
  // They give the day of an operation on a sent case: the curve follows it. The 10th case, a failure, moved
  // first: 0.8138, then nine successes (−0.8617, short of −1.6277), then a failure: no signal any more.
  const headers = { Authorization: `Bearer ${await apiToken(request, who.paul.email)}` };
  const own = await request.get(`/v1/stats/me/learning-curves?programmeId=${programmeId}`, { headers });
  const tenth = ((await own.json()) as { data: { curves: { curve: { points: { videoId: string }[] } }[] } }).data.curves[0]!.curve
    .points[9]!;
  await page.goto(`/videos/${tenth.videoId}`);
  const field = page.getByTestId('operation-day');
  await expect(field).toBeVisible({ timeout: 60_000 });
  await field.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type('15012026');
  await page.getByTestId('operation-day-save').click();
  await expect(page.getByText("Le jour de l'opération est enregistré.")).toBeVisible();
  await page.goto('/my-stats?tab=curves');
  await expect(page.getByTestId('curve-sentence')).toHaveText('11 cas de pyéloplastie analysés ; en apprentissage, pas encore de signal', {
    timeout: 60_000,
  });
  // Put back where it was, for the tests that follow.
  const back = await request.put(`/v1/videos/${tenth.videoId}/operation-day`, { headers, data: { operatedOn: '2026-02-10' } });
  expect(back.status(), await back.text()).toBe(200);
  // What the directors see of them, and not another resident.
  await page.goto(`/programmes/${programmeId}/learners/${who.emma.id}`);
  await expect(page.getByRole('alert')).toContainText(/existe pas/, { timeout: 60_000 });
});

test('an administrator creates a programme, names its learner and director, and reads the cohort’s programme', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, who.admin.email, who.admin.password);
  const entry = page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Programmes de formation' });
  await expect(entry).toHaveAttribute('href', '/admin/programmes');
  await entry.click();
  await expect(page.getByTestId('admin-programme').filter({ hasText: 'Internes 2026' })).toContainText('2 apprenants · 2 directeurs', {
    timeout: 60_000,
  });
  await settle(page);
  await axeClean(page, 'admin list');

  await page.getByTestId('programme-new').click();
  await page.getByTestId('programme-name').fill('Internes 2027');
  // An unacceptable rate below the acceptable one is refused by the shared schema, in French.
  await page.getByTestId('programme-p1').fill('5');
  await page.getByTestId('programme-save').click();
  await expect(page.getByText("Le taux d'échec inacceptable doit être supérieur au taux acceptable")).toBeVisible();
  await page.getByTestId('programme-p1').fill('30');
  await page.getByTestId('programme-save').click();
  await expect(page.getByTestId('admin-programme-title')).toHaveText('Internes 2027', { timeout: 60_000 });

  await page.getByRole('combobox', { name: 'Chercher un apprenant' }).fill('Faure');
  await page.getByRole('option', { name: /Emma Faure/ }).click();
  await page.getByTestId('programme-add-members').click();
  await expect(page.getByTestId('programme-members')).toContainText('Emma Faure');
  await page.getByRole('combobox', { name: 'Chercher une personne' }).fill('Directrice');
  await page.getByRole('option', { name: /Dora Directrice/ }).click();
  await page.getByTestId('programme-add-directors').click();
  await expect(page.getByTestId('programme-directors')).toContainText('Dora Directrice');
  await settle(page);
  await axeClean(page, 'admin detail');

  // Emma leaves it: the list says so at once.
  await page.getByRole('button', { name: 'Retirer Emma Faure du programme' }).click();
  await expect(page.getByTestId('programme-members')).not.toContainText('Emma Faure');
});

const PASSES = [
  { lang: 'fr', theme: THEMES[1], director: 'directeur', proficient: 'Rechute · 11e' },
  { lang: 'en', theme: THEMES[0], director: 'director', proficient: 'Relapse · 11th' },
] as const;

for (const pass of PASSES) {
  for (const width of [390, 1440]) {
    test(`the cohort and a resident’s page at ${width} px, ${pass.lang} in the ${pass.theme} theme, fit the screen and are axe-clean`, async ({
      page,
    }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: pass.theme });
      const director = who[pass.director];
      await signIn(page, director.email, director.password);
      await page.goto(`/programmes/${programmeId}`);
      await expect(page.getByTestId('cohort-row').filter({ hasText: 'Paul Roux' }).getByTestId('curve-state')).toHaveText(pass.proficient, {
        timeout: 60_000,
      });
      await expect(page.locator('html')).toHaveAttribute('lang', pass.lang);
      await settle(page);
      await checkScreen(page, `programme-cohort-${pass.lang}-${pass.theme}-${width}`);
      await axeClean(page, 'cohort');
      await page.goto(`/programmes/${programmeId}/learners/${who.paul.id}`);
      await expect(page.getByTestId('curve-table')).toBeVisible({ timeout: 60_000 });
      await settle(page);
      await checkScreen(page, `programme-learner-${pass.lang}-${pass.theme}-${width}`);
      await axeClean(page, 'learner');
    });
  }
}
