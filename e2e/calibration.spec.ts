import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import pg from 'pg';
import pino from 'pino';
import { embeddedUrl, startEmbeddedServer } from '../apps/api/src/db/embedded-server.ts';
import { expect, people, test, type PersonSpec } from './fixtures.ts';
import { checkScreen, settle, THEMES } from './screens.ts';
import { expectFitsWidth, signIn } from './support.ts';
import { apiToken, password } from './workflow.ts';

/**
 * Double reviews written into the server's own database (a fresh server has none without its
 * videos): four cases of the first surgery of the spec's learner, reviewed by the spec's expert
 * Claire Dubois and two colleagues made here, whose global rating and KPIs give κ_w = 0.75 and
 * ICC = 0.80 (computed by hand in apps/api/test/calibration.test.ts).
 */
const colleagues = {
  bruno: { roles: ['expert'], firstName: 'Bruno', lastName: 'Deux' },
  chloe: { roles: ['expert'], firstName: 'Chloé', lastName: 'Trois' },
} satisfies Record<string, PersonSpec>;
const fullName = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

test.beforeAll(async ({ request, cast, server }) => {
  const made = await people(request, colleagues);
  const db = await startEmbeddedServer({ dir: path.join(server.dataDir, 'db'), log: pino({ level: 'silent' }), attach: true });
  const client = new pg.Client({ connectionString: embeddedUrl(db.connection) });
  await client.connect();
  try {
    const [a, b, c] = [cast.expert.id, made.bruno.id, made.chloe.id];
    const learner = cast.learner.id;
    const { rows: surgeries } = await client.query(`SELECT id FROM surgeries ORDER BY position LIMIT 1`);
    const cases: [string, number][][] = [
      [
        [a, 4],
        [b, 3],
      ],
      [
        [b, 2],
        [a, 2],
      ],
      [
        [a, 5],
        [b, 4],
      ],
      [
        [c, 3],
        [a, 3],
        [b, 1],
      ],
    ];
    for (const [n, reviews] of cases.entries()) {
      const { rows } = await client.query(
        `INSERT INTO videos (author_id, surgery_id, status, media_status, reviews_required) VALUES ($1, $2, 'analysed', 'ready', $3) RETURNING id`,
        [learner, surgeries[0].id, reviews.length],
      );
      for (const [round, [expert, level]] of reviews.entries()) {
        const kpis = Object.fromEntries(
          ['depthPerception', 'bimanualDexterity', 'efficiency', 'tissueHandling', 'autonomy'].map((k) => [k, level]),
        );
        await client.query(
          `INSERT INTO analyses (video_id, round, expert_id, status, kpi_ratings, global_rating, submitted_at)
           VALUES ($1, $2, $3, 'submitted', $4, $5, now() - make_interval(days => $6))`,
          [rows[0].id, round + 1, expert, JSON.stringify(kpis), level, 20 - n * 4 - round],
        );
      }
    }
  } finally {
    await client.end();
    await db.stop();
  }
});

async function axeClean(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('an administrator opens the calibration and reads n, kappa and ICC, who rates higher and the Bland–Altman plot', async ({
  page,
  cast,
}) => {
  test.setTimeout(180_000);
  await signIn(page, cast.admin.email, password);
  await page.goto('/admin');
  const entry = page.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Calibration' });
  await expect(entry).toHaveAttribute('href', '/admin/calibration');
  await entry.click();
  await expect(page).toHaveURL(/\/admin\/calibration$/);
  const report = page.getByTestId('calibration-report');
  // The machine running the suite may be slow: the report is waited for longer than the default.
  await expect(report.getByTestId('agreement-cases')).toHaveText('4 cas en double relecture, dont 1 avec une troisième relecture.', {
    timeout: 60_000,
  });
  const global = report.getByTestId('agreement-row-global');
  await expect(global.locator('td').nth(0)).toHaveText('4');
  await expect(global.locator('td').nth(1)).toContainText('0,75');
  await expect(global.locator('td').nth(2)).toContainText('0,80');
  const experts = report.getByTestId('agreement-expert');
  await expect(experts).toHaveCount(3);
  await expect(experts.nth(2)).toContainText(fullName(colleagues.bruno));
  await expect(report.getByTestId('agreement-bland-altman-points')).toBeVisible();
  // A period without double reviews.
  await page.getByTestId('calibration-from').fill('2020-01-01');
  await page.getByTestId('calibration-to').fill('2020-01-31');
  await expect(report.getByTestId('agreement-cases')).toContainText('0 cas');
  await expect(page).toHaveURL(/from=2020-01-01/);

  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'English' }).click();
  // The whole page loads again, the report with it: waited for as long as the first time.
  await page.goto('/admin/calibration');
  await expect(page.getByTestId('calibration-report').getByTestId('agreement-cases')).toHaveText(
    '4 double-reviewed cases, 1 with a third review.',
    { timeout: 60_000 },
  );
  await page.getByTestId('language-switcher').click();
  await page.getByRole('menuitem', { name: 'Français' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
});

test('the expert sees their own view, and cannot open the administration’s calibration (server 403 too)', async ({
  page,
  request,
  cast,
}) => {
  await signIn(page, cast.expert.email, password);
  await page.getByRole('link', { name: 'Ma calibration' }).first().click();
  await expect(page).toHaveURL(/\/my-calibration$/);
  const own = page.getByTestId('calibration-own');
  await expect(own.getByTestId('agreement-cases')).toContainText('4 cas en double relecture', { timeout: 60_000 });
  await expect(own.getByTestId('agreement-expert')).toHaveCount(1);
  await expect(own.getByTestId('agreement-expert')).toContainText(fullName(cast.expert));
  const programme = page.getByTestId('calibration-programme');
  await expect(programme.getByTestId('agreement-row-global').locator('td').nth(1)).toContainText('0,75');
  await expect(page.getByText(fullName(colleagues.bruno))).toHaveCount(0);
  await expect(page.getByText(fullName(colleagues.chloe))).toHaveCount(0);

  await page.goto('/admin/calibration');
  await expect(page.getByTestId('calibration-report')).toHaveCount(0);
  const headers = { Authorization: `Bearer ${await apiToken(request, cast.expert.email)}` };
  const refused = await request.get('/v1/admin/calibration?filter=from==2020-01-01__to==2030-12-31', { headers });
  expect(refused.status()).toBe(403);
});

for (const width of [390, 1440]) {
  for (const theme of THEMES) {
    test(`the calibration pages at ${width} px in the ${theme} theme fit the screen and are axe-clean`, async ({ page, cast }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: theme });
      for (const [email, pathname, name] of [
        [cast.admin.email, '/admin/calibration', 'admin-calibration'],
        [cast.expert.email, '/my-calibration', 'my-calibration'],
      ] as const) {
        await page.context().clearCookies();
        await signIn(page, email, password);
        await page.goto(pathname);
        await expect(page.getByTestId('agreement-summary').first()).toBeVisible({ timeout: 60_000 });
        await settle(page);
        await checkScreen(page, `${name}-${width}-${theme}`);
        await expectFitsWidth(page);
        await axeClean(page);
      }
    });
  }
}
